import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ConfirmationSummary } from "@/components/confirmation-summary";
import { confirmView } from "@/server/gateway/console/confirm-view";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { approve, createWorld, idem, type World } from "../../gateway/gateway-world";
import { allowEgressTo } from "../../helpers/allow-egress";

/**
 * DESIGN (issue 19): for an imported write, what the person's screen shows is exactly what is
 * sent. Random operations (nested objects, arrays, numbers with and without a documented unit or
 * format, strings with invisible and bidi characters) are imported, prepared, rendered on the
 * console's server-rendered confirm screen, approved and confirmed; a real HTTP server captures
 * what arrives. The screen is parsed back — row by row, by the grammar the renderer writes — into
 * one value, and that value serialised is byte for byte the body the API received; the path and
 * query values read back the same way. No raw invisible character reaches the screen.
 */

type Schema = {
  type: string;
  description?: string;
  format?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
};

const NAME = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/).filter((n) => !["note", "thing", "body"].includes(n));
const UNITS = ["The price in US dollars.", "Amount in cents", "Weight, in kilograms", "How many"];
const numberSchema = fc.record(
  {
    type: fc.constantFrom("number", "integer"),
    description: fc.constantFrom(...UNITS),
    format: fc.constantFrom("double", "int64", "float"),
  },
  { requiredKeys: ["type"] },
);
const leafSchema: fc.Arbitrary<Schema> = fc.oneof(
  numberSchema,
  fc.record({ type: fc.constant("string") }),
  fc.record({ type: fc.constant("boolean") }),
);
const { schema: anySchema } = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafSchema,
    fc
      .dictionary(NAME, tie("schema"), { minKeys: 1, maxKeys: 3 })
      .map((properties) => ({ type: "object", properties })),
    tie("schema").map((items) => ({ type: "array", items })),
  ),
}));

// Characters that hide, reorder or pretend: bidi controls, zero-width, line breaks, quotes, a
// literal "<U+" that spells a code point, and ordinary letters around them.
const CHARS = [
  "a",
  "b",
  "Z",
  "1",
  " ",
  "$",
  ".",
  "é",
  "😀",
  "<",
  "U",
  "+",
  ">",
  '"',
  "\\",
  "\n",
  "\r",
  "\t",
  "\u202E",
  "\u202D",
  "\u2066",
  "\u2069",
  "\u200B",
  "\u200E",
  "\u200F",
  "\u061C",
  "\uFEFF",
  "\u00AD",
];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 12 }).map((cs) => cs.join(""));

function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  switch (schema.type) {
    case "number":
      return fc
        .double({ min: -1e7, max: 1e7, noNaN: true, noDefaultInfinity: true })
        .map((n) => (Object.is(n, -0) ? 0 : n));
    case "integer":
      return fc.integer({ min: -1e9, max: 1e9 });
    case "string":
      return text;
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(valueFor(schema.items as Schema), { maxLength: 3 });
    default: {
      const props = schema.properties ?? {};
      return fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueFor(s)])), {
        requiredKeys: [],
      });
    }
  }
}

const operation = fc.dictionary(NAME, anySchema, { minKeys: 1, maxKeys: 4 }).chain((properties) =>
  fc.record({
    properties: fc.constant(properties),
    body: valueFor({ type: "object", properties }) as fc.Arbitrary<Record<string, unknown>>,
    thing: fc.stringMatching(/^[a-z0-9]{1,12}$/),
    note: text.filter((t) => t !== ""),
  }),
);

const documentOf = (properties: Record<string, Schema>) => ({
  openapi: "3.0.3",
  info: { title: "Generated", version: "1.0.0" },
  paths: {
    "/things/{thing}/items": {
      post: {
        operationId: "createItem",
        parameters: [
          { name: "thing", in: "path", required: true, schema: { type: "string" } },
          { name: "note", in: "query", required: false, schema: { type: "string" } },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", properties } } },
        },
        responses: { "201": { description: "Created" } },
      },
    },
  },
});

// --- Reading the screen back: the renderer's grammar, parsed independently of it. -------------

type ScreenRow = { path: string; depth: number; label: string; text: string };

const unescapeHtml = (s: string) =>
  s
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&amp;", "&");
/** `<U+XXXX>` back to the character it stands for (and `<U+003C>` to a literal `<`). */
const unshow = (s: string) =>
  s.replace(/<U\+([0-9A-F]{4,6})>/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)));

function screenRows(html: string): ScreenRow[] {
  const rows: ScreenRow[] = [];
  const re =
    /<div class="contents" data-key="([^"]*)" data-depth="(\d+)"><dt[^>]*>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd><\/div>/g;
  for (const m of html.matchAll(re)) {
    const dd = (m[4] ?? "").replace(/<span[^>]*>.*?<\/span>/g, "");
    rows.push({
      path: unescapeHtml(m[1] ?? ""),
      depth: Number(m[2]),
      label: unescapeHtml(m[3] ?? ""),
      text: unescapeHtml(dd),
    });
  }
  return rows;
}

/** One scalar from the start of shown text, and what follows it. */
function scalarAt(s: string, schema: Schema | undefined): { value: unknown; rest: string } {
  let value: unknown;
  let rest: string;
  const str = /^"(?:[^"\\]|\\.)*"/.exec(s);
  if (str) {
    value = JSON.parse(unshow(str[0]));
    rest = s.slice(str[0].length);
  } else {
    const word = /^(yes|no|none|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/.exec(s);
    if (!word) throw new Error(`unreadable value: ${s}`);
    const w = word[1] as string;
    value = w === "yes" ? true : w === "no" ? false : w === "none" ? null : Number(w);
    rest = s.slice(w.length);
  }
  const about = /^ \(([^()]*)\)/.exec(rest);
  if (about) {
    // A number's documented unit and format, exactly as the document words them.
    if (schema?.format) expect(about[1]).toContain(`format ${schema.format}`);
    rest = rest.slice(about[0].length);
  } else if (typeof value === "number" && (schema?.format || schema?.description?.match(/\b(in|as) /)))
    throw new Error(`a documented unit or format is not shown: ${s}`);
  return { value, rest };
}

function leafOf(text: string, schema: Schema | undefined): unknown {
  if (text === "(empty list)") return [];
  if (text === "(empty object)") return {};
  if (schema?.type === "array") {
    const out: unknown[] = [];
    let rest = text;
    while (rest) {
      const one = scalarAt(rest, schema.items);
      out.push(one.value);
      rest = one.rest.startsWith(", ") ? one.rest.slice(2) : one.rest;
      if (rest && one.rest === rest && !one.rest.startsWith(", ")) throw new Error(`trailing: ${rest}`);
    }
    return out;
  }
  const one = scalarAt(text, schema);
  if (one.rest) throw new Error(`trailing text after a value: ${one.rest}`);
  return one.value;
}

/** The rows under one container, back into the value they show. */
function valueFromRows(rows: ScreenRow[], schema: Schema | undefined): unknown {
  const isList = schema?.type === "array";
  const out: Record<string, unknown> = {};
  const list: unknown[] = [];
  let i = 0;
  while (i < rows.length) {
    const row = rows[i] as ScreenRow;
    let j = i + 1;
    while (j < rows.length && (rows[j] as ScreenRow).depth > row.depth) j++;
    const inner = isList ? schema?.items : schema?.properties?.[row.label];
    const value = row.text ? leafOf(row.text, inner) : valueFromRows(rows.slice(i + 1, j), inner);
    if (isList) list.push(value);
    else out[row.label] = value;
    i = j;
  }
  return isList ? list : out;
}

// --- The world: Signpost, and an API that records what it receives. ---------------------------

let w: World;
let api: Server;
let apiUrl = "";
const received: { path: string; body: string }[] = [];
const aliceConsole = (): ConsoleContext => ({
  sessionId: "test",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.alice.userId as string,
  email: "alice@acme.test",
  name: "Alice",
  role: "member",
});

beforeAll(async () => {
  w = await createWorld("sqlite");
  api = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(201, { "content-type": "application/json" });
      res.end('{"id":"it_1"}');
    });
  });
  // Longer than the client's pool keeps a socket, so a reused connection is never closed under it.
  api.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  allowEgressTo(apiUrl);
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => api?.close(() => resolve()));
  await w?.close();
});

let run = 0;

describe("what the person's screen shows is what the API receives (property)", () => {
  test("random imported operations: the screen read back is byte for byte the request", async () => {
    await fc.assert(
      fc.asyncProperty(operation, async ({ properties, body, thing, note }) => {
        const id = `gen${++run}`;
        const doc = documentOf(properties);
        const imported = await importOpenApiConnector(
          w.db,
          cliActor("acme", "test"),
          {
            text: JSON.stringify(doc),
            id,
            baseUrl: apiUrl,
            readRoles: ["admin"],
            secrets: {},
            self: { origins: [], ports: [] },
          },
          { apply: true },
        );
        expect(imported.ok, JSON.stringify(imported)).toBe(true);
        const target = `${id}://things/${thing}/items/create`;
        const rule = await createPermissionRule(
          w.db,
          { ...aliceConsole(), userId: w.person.adam.userId as string, role: "admin" },
          {
            subjectType: "role",
            subjectId: "member",
            verb: "start",
            pattern: target,
            decision: "allow",
          },
        );
        expect(rule.ok, JSON.stringify(rule)).toBe(true);

        const started = await w.gw.startAction(w.agent.alice, {
          capability: "api_request",
          patch: { target, values: { ...body, note } },
        });
        expect(started.outcome, JSON.stringify(started)).toBe("applied");
        const actionId = String(started.action_id);
        const view = await confirmView(w.db, aliceConsole(), actionId);
        const approval = view?.approval;
        if (!approval) throw new Error("no approval on the screen");
        const html = renderToStaticMarkup(
          createElement(ConfirmationSummary, {
            capability: "api_request",
            title: view.title,
            actionId,
            version: approval.version,
            summary: approval.summary,
          }),
        );
        // Nothing invisible or reordering reaches the screen as itself.
        expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200F\u061C\uFEFF\u00AD\n\r\t]/u);
        const rows = screenRows(html);
        const top = (key: string) => {
          const at = rows.findIndex((r) => r.depth === 0 && r.path === key);
          if (at < 0) return null;
          let end = at + 1;
          while (end < rows.length && (rows[end] as ScreenRow).depth > 0) end++;
          return { row: rows[at] as ScreenRow, inner: rows.slice(at + 1, end) };
        };

        const before = received.length;
        expect((await approve(w, actionId, w.person.alice)).outcome).toBe("applied");
        const done = await w.gw.confirmAction(w.agent.alice, {
          action_id: actionId,
          idempotency_key: idem(),
        });
        expect(done.outcome, JSON.stringify(done)).toBe("applied");
        expect(received.length).toBe(before + 1);
        const got = received.at(-1) as { path: string; body: string };

        // The body: the screen's rows, read back, serialise to exactly the bytes received.
        const shownBody = top("body");
        const bodySchema: Schema = { type: "object", properties };
        const fromScreen = shownBody ? valueFromRows(shownBody.inner, bodySchema) : {};
        expect(got.body).toBe(JSON.stringify(fromScreen));
        // The path and the query, as shown and as received.
        const url = new URL(got.path, "http://x");
        expect(url.pathname).toBe(`/things/${thing}/items`);
        expect(top("path")?.row.text).toBe(`/things/${thing}/items`);
        const query = top("query");
        const shownNote = query
          ? (
              valueFromRows(query.inner, { type: "object", properties: { note: { type: "string" } } }) as {
                note?: string;
              }
            ).note
          : undefined;
        expect(url.searchParams.get("note")).toBe(shownNote);
        expect(shownNote).toBe(note);
      }),
      { numRuns: Number(process.env.SHOWN_IS_SENT_RUNS ?? 30), interruptAfterTimeLimit: 240_000 },
    );
  }, 300_000);
});
