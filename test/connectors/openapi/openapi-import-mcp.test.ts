import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { approve, idem } from "../../gateway/gateway-world";
import {
  type RecordingProxy,
  type RunningPrism,
  servePrism,
  startRecordingProxy,
} from "../../helpers/prism-server";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";
import { trainDocWithPastedToken } from "./train-doc-pasted-token";

/**
 * An imported system behaves like the demo ones, through a real MCP client: two real public
 * documents (`@readme/oas-examples`: the tiny 3.0 petstore without auth, and the 3.1 Train
 * Travel API with OAuth2) mocked by Stoplight Prism behind a recording proxy, so what reached
 * the API, and when, is what the assertions read.
 */

const EXAMPLES = join(process.cwd(), "node_modules/@readme/oas-examples");
const PETS_DOC = join(EXAMPLES, "3.0/json/petstore-expanded.json");
const TRAIN_DOC = trainDocWithPastedToken();
const TRAIN_TOKEN = "tt_live_Zr8q2VhN4mXkP7sW9yB3cD5f";

let w: McpWorld;
let pets: { prism: RunningPrism; proxy: RecordingProxy };
let train: { prism: RunningPrism; proxy: RecordingProxy };
const clients: Partial<Record<"sam" | "alice" | "adam" | "gina", Client>> = {};

async function mocked(doc: string) {
  const prism = await servePrism(doc);
  return { prism, proxy: await startRecordingProxy(prism.url) };
}

async function client(who: "sam" | "alice" | "adam" | "gina"): Promise<Client> {
  clients[who] ??= await w.connect(w.keys[who], { faces: "browse,actions" });
  return clients[who] as Client;
}

const call = async (who: "sam" | "alice" | "adam" | "gina", name: string, args: Record<string, unknown>) =>
  (await client(who)).callTool({ name, arguments: args });

const adamConsole = (): ConsoleContext => ({
  sessionId: "test",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.adam.userId as string,
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
});

const importInto = (
  id: string,
  doc: string,
  baseUrl: string,
  secrets: Record<string, string> = {},
  apply = true,
) =>
  importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: readFileSync(doc, "utf8"),
      id,
      baseUrl,
      readRoles: ["admin", "support"],
      secrets,
      self: { origins: [w.url], ports: [] },
    },
    { apply },
  );

beforeAll(async () => {
  [pets, train, w] = await Promise.all([mocked(PETS_DOC), mocked(TRAIN_DOC), createMcpWorld("sqlite")]);
  const a = await importInto("pets", PETS_DOC, pets.proxy.url);
  const b = await importInto("train", TRAIN_DOC, train.proxy.url, { OAuth2: TRAIN_TOKEN });
  if (!a.ok || !b.ok) throw new Error(`import failed: ${JSON.stringify([a, b])}`);
}, 240_000);

afterAll(async () => {
  await w?.close();
  await Promise.all([pets, train].filter(Boolean).flatMap((m) => [m.proxy.stop(), m.prism.stop()]));
});

describe("an imported system through a real MCP client", () => {
  test("search finds the imported listing; navigate reads it from the API; rows open detail pages", async () => {
    const found = text(await call("sam", "search", { query: "pets" }));
    expect(found).toContain("(pets://pets)");
    const before = pets.proxy.requests.length;
    const listing = await call("sam", "navigate", { uri: "pets://pets" });
    expect(sc(listing).outcome).toBe("applied");
    expect(pets.proxy.requests.slice(before).map((r) => `${r.method} ${r.path.split("?")[0]}`)).toEqual([
      "GET /pets",
    ]);
    // Prism's made-up id for a document without examples (-9007199254740991) is a segment like
    // any other: the row opens its detail page, and the API is asked for that id.
    expect(sc(listing).links).toContain("pets://pets/-9007199254740991");
    const pet = await call("sam", "navigate", { uri: "pets://pets/-9007199254740991" });
    expect(sc(pet).outcome, text(pet)).toBe("applied");
    expect(pets.proxy.requests.at(-1)?.path).toBe("/pets/-9007199254740991");

    // Train Travel's examples have real ids: each row opens its detail page, with its forms.
    const bookings = await call("adam", "navigate", { uri: "train://bookings" });
    expect(sc(bookings).outcome, text(bookings)).toBe("applied");
    const detail = (sc(bookings).links as unknown as string[]).find((l) =>
      /^train:\/\/bookings\/[0-9a-f-]{36}$/.test(l),
    );
    expect(detail, text(bookings)).toBeTruthy();
    const page = await call("adam", "navigate", { uri: detail as string });
    expect(sc(page).outcome, text(page)).toBe("applied");
    expect(text(page)).toMatch(/\*\*passenger\\?_name:\*\*/);
    expect(sc(page).links).toEqual(expect.arrayContaining([`${detail}/delete`, `${detail}/payment/create`]));
  });

  test("a filter the document does not list is refused before anything is sent", async () => {
    const before = pets.proxy.requests.length;
    const page = await call("sam", "navigate", { uri: "pets://pets?colour=red" });
    expect(sc(page).outcome).toBe("rejected");
    expect(text(page)).toContain("invalid_filter");
    expect(pets.proxy.requests.length).toBe(before);
    const limited = await call("sam", "navigate", { uri: "pets://pets?tags=dog" });
    expect(sc(limited).outcome).toBe("applied");
    expect(pets.proxy.requests.at(-1)?.path).toMatch(/^\/pets\?(.*&)?tags=dog/);
  });

  test("reads are allowed for the import's read roles only (a member is asked to request them)", async () => {
    const page = await call("alice", "navigate", { uri: "pets://pets" });
    expect(sc(page).outcome).toBe("rejected");
    expect(text(page)).toContain("Permission required");
    // Search does not offer a member the pages that would answer so; support is offered them.
    const pagesFound = async (who: "alice" | "sam") =>
      ((sc(await call(who, "search", { query: "pets" })).links ?? []) as string[]).filter((l) =>
        l.startsWith("pets://"),
      );
    expect(await pagesFound("alice")).toEqual([]);
    expect(await pagesFound("sam")).toContain("pets://pets");
    // A one-time grant is for one navigate of the page: a search that names the page opens it
    // with that navigate (found by review: the search's check of the page, before opening it,
    // used the grant up, so the page did not open).
    const grant = await w.db.permissionRequest.create({
      data: {
        tenantId: "acme",
        agentId: w.agent.alice.agentId as string,
        verb: "navigate",
        target: "pets://pets",
        status: "granted",
        grantMode: "once",
      },
    });
    const opened = text(await call("alice", "search", { query: "pets" }));
    expect(opened).toMatch(/\]\(pets:\/\/pets\) \(opened here\)/);
    expect((await w.db.permissionRequest.findUniqueOrThrow({ where: { id: grant.id } })).status).toBe("used");
    expect(sc(await call("alice", "navigate", { uri: "pets://pets" })).outcome).toBe("rejected");
    // Changed like any rule: the admin lets members read the pets listing.
    const rule = await createPermissionRule(w.db, adamConsole(), {
      subjectType: "role",
      subjectId: "member",
      verb: "navigate",
      pattern: "pets://pets",
      decision: "allow",
    });
    expect(rule.ok, JSON.stringify(rule)).toBe(true);
    expect(sc(await call("alice", "navigate", { uri: "pets://pets" })).outcome).toBe("applied");
    expect(await pagesFound("alice")).toContain("pets://pets");
    // A rule naming a scheme the tenant does not have is refused when saved.
    const unknown = await createPermissionRule(w.db, adamConsole(), {
      subjectType: "role",
      subjectId: "member",
      verb: "navigate",
      pattern: "nowhere://things",
      decision: "allow",
    });
    expect(unknown.ok).toBe(false);
  });

  test("a write is denied until an admin grants it, then stops at a person's approval; only then does it reach the API", async () => {
    const posts = () => pets.proxy.requests.filter((r) => r.method === "POST");
    const form = await call("sam", "navigate", { uri: "pets://pets/create" });
    expect(text(form)).toContain("uri: pets://pets/create");
    expect(text(form)).toMatch(/name: "" {2}# required — string/);
    const denied = await call("sam", "submit", {
      uri: "pets://pets/create",
      fields: { name: "Rex", tag: "dog" },
    });
    expect(sc(denied).outcome).toBe("rejected");
    expect(text(denied)).toMatch(/permission/i);
    expect(posts()).toHaveLength(0);

    // The admin grants this one write to support, as a rule on the form's URI.
    const rule = await createPermissionRule(w.db, adamConsole(), {
      subjectType: "role",
      subjectId: "support",
      verb: "start",
      pattern: "pets://pets/create",
      decision: "allow",
    });
    expect(rule.ok, JSON.stringify(rule)).toBe(true);

    const invalid = await call("sam", "submit", { uri: "pets://pets/create", fields: { tag: "dog" } });
    expect(text(invalid)).toMatch(/name is required/);
    const started = await call("sam", "submit", {
      uri: "pets://pets/create",
      fields: { name: "Rex", tag: "dog" },
    });
    const page = text(started);
    expect(page).toContain("POST /pets on");
    expect(page).toMatch(/\*\*name:\*\* "Rex"/);
    const actionId = (sc(started).links as unknown as string[])
      .find((l) => /^actions:\/\/[^/]+$/.test(l))
      ?.slice("actions://".length);
    expect(actionId, page).toBeTruthy();
    expect(posts()).toHaveLength(0);

    // Confirming before a person approved does nothing.
    const early = sc(await call("sam", "confirm_action", { action_id: actionId, idempotency_key: idem() }));
    expect(early.outcome).not.toBe("applied");
    expect(posts()).toHaveLength(0);

    const approved = await approve(w, actionId as string, w.person.sam);
    expect(approved.outcome, JSON.stringify(approved)).toBe("applied");
    const confirmed = sc(
      await call("sam", "confirm_action", { action_id: actionId, idempotency_key: idem() }),
    );
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("applied");
    expect(posts()).toHaveLength(1);
    expect(JSON.parse(posts()[0]?.body ?? "{}")).toEqual({ name: "Rex", tag: "dog" });

    // Another write of the same system is still not granted.
    const other = await call("sam", "submit", { uri: "pets://pets/1/delete", fields: {} });
    expect(sc(other).outcome).toBe("rejected");
    expect(pets.proxy.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);

    // Every step is on record, attributed to the agent.
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", actionId: actionId as string },
    });
    expect(rows.map((r) => r.operation)).toEqual(
      expect.arrayContaining(["action.started", "action.confirmed"]),
    );
  });

  test("starting the generic write by hand cannot skip the form's grant, nor move a granted one", async () => {
    const started = sc(
      await call("alice", "start_action", {
        capability: "api_request",
        patch: { target: "pets://pets/7/delete", values: {} },
      }),
    );
    expect(started.outcome).toBe("rejected");
    expect(started.reason).toBe("permission_required");
    // Sam may create pets; the action's target is fixed once started, so it cannot become a delete.
    const mine = sc(
      await call("sam", "start_action", {
        capability: "api_request",
        patch: { target: "pets://pets/create", values: { name: "Tom" } },
      }),
    );
    expect(mine.action_id, JSON.stringify(mine)).toBeTruthy();
    const moved = sc(
      await call("sam", "advance_action", {
        action_id: mine.action_id,
        version: mine.version,
        patch: { target: "pets://pets/7/delete" },
      }),
    );
    expect(moved.outcome).toBe("rejected");
    expect(JSON.stringify(moved.validation_errors)).toContain("field_locked");
    expect(pets.proxy.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  test("secrets from the document's security schemes are sent to the API and visible nowhere", async () => {
    const page = await call("adam", "navigate", { uri: "train://stations" });
    expect(sc(page).outcome, text(page)).toBe("applied");
    const sent = train.proxy.requests.at(-1);
    expect(sent?.headers.authorization).toBe(`Bearer ${TRAIN_TOKEN}`);
    const config = await call("adam", "navigate", { uri: "config://train" });
    expect(text(config)).toContain("oauth2");
    const audit = await w.db.auditEvent.findMany({ where: { tenantId: "acme" } });
    for (const value of [text(page), text(config), JSON.stringify(audit)])
      expect(value).not.toContain(TRAIN_TOKEN);
  });

  test("another tenant never sees an imported system: not_found, and search does not list it", async () => {
    const page = await call("gina", "navigate", { uri: "pets://pets" });
    expect(sc(page).outcome).toBe("not_found");
    const found = text(await call("gina", "search", { query: "pets" }));
    expect(found).not.toContain("pets://");
  });

  test("a re-import shows what changes before anything is applied; a bad base URL changes nothing", async () => {
    const doc = JSON.parse(readFileSync(PETS_DOC, "utf8"));
    doc.paths["/pets/{id}"].patch = { operationId: "updatePet", responses: { "200": { description: "ok" } } };
    delete doc.paths["/pets/{id}"].delete;
    const preview = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: JSON.stringify(doc),
        id: "pets",
        baseUrl: pets.proxy.url,
        readRoles: ["admin", "support"],
        secrets: {},
        self: { origins: [w.url], ports: [] },
      },
      { apply: false },
    );
    expect(preview.ok && preview.value.diff).toEqual({
      added: ["PATCH /pets/{id} (updatePet)"],
      removed: ["DELETE /pets/{id} (deletePet)"],
      changed: [],
      unchanged: 3,
      security: [],
    });
    const self = await importInto("mirror", PETS_DOC, `${w.url}/api`);
    expect(self).toMatchObject({ ok: false, details: { code: "bad_base_url" } });
    const ftp = await importInto("mirror", PETS_DOC, "ftp://files.example.com");
    expect(ftp).toMatchObject({ ok: false, details: { code: "bad_base_url" } });
    expect(await w.db.importedConnector.count({ where: { connector: "mirror" } })).toBe(0);
    // The preview applied nothing: the delete form still answers.
    expect(text(await call("sam", "navigate", { uri: "pets://pets/1/delete" }))).toContain(
      "uri: pets://pets/1/delete",
    );
  });
});
