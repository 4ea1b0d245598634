import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ConfirmScreen } from "@/components/confirm-screen";
import { confirmView } from "@/server/gateway/console/confirm-view";
import { csvCell } from "@/server/gateway/console/csv-cell";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { listAuditEvents } from "@/server/gateway/console/list-audit-events";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { approvalMails, permissionRequestMails } from "@/server/gateway/notify-people";
import { approve, idem } from "../../gateway/gateway-world";
import {
  type RecordingProxy,
  type RunningPrism,
  startPrism,
  startRecordingProxy,
} from "../../helpers/prism-server";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * Issue 19's attacks on the decision screen and people's channels, through a real MCP client,
 * a billing API mocked by Prism behind a recording proxy, the console's server-rendered confirm
 * screen (the page's own component and view), the MCP App's screen (its `_meta`), the approver's
 * email and the audit export's cells. What the API received is read back from the proxy.
 */

const BILLING = {
  openapi: "3.0.3",
  info: { title: "Billing", version: "1.0.0" },
  paths: {
    "/accounts/{account_id}/charges": {
      post: {
        operationId: "createCharge",
        summary: "Create a charge",
        parameters: [
          { name: "account_id", in: "path", required: true, schema: { type: "string" } },
          { name: "X-Note", in: "header", required: false, schema: {} },
        ],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["unit_price"],
                properties: {
                  unit_price: { type: "number", description: "The unit price in US dollars." },
                  quantity: { type: "integer" },
                  memo: { type: "string" },
                  lines: {
                    type: "array",
                    items: {
                      type: "object",
                      properties: {
                        d: { type: "string" },
                        q: { type: "integer" },
                        p: { type: "number" },
                        s: { type: "string" },
                      },
                    },
                  },
                  tags: { type: "object", additionalProperties: { type: "string" } },
                  payment: {
                    type: "object",
                    properties: {
                      name: { type: "string" },
                      amount: { type: "number" },
                      payee: { type: "string" },
                    },
                  },
                },
              },
            },
          },
        },
        responses: {
          "201": {
            description: "Created",
            content: {
              "application/json": {
                schema: { type: "object", properties: { id: { type: "string" } } },
                example: { id: "ch_1" },
              },
            },
          },
        },
      },
    },
  },
};

const TARGET = "billing://accounts/acct_1/charges/create";
let w: McpWorld;
let prism: RunningPrism;
let proxy: RecordingProxy;
let alice: Client;

const aliceConsole = (): ConsoleContext => ({
  sessionId: "test",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.alice.userId as string,
  email: "alice@acme.test",
  name: "Alice",
  role: "member",
});
const adamConsole = (): ConsoleContext => ({
  ...aliceConsole(),
  userId: w.person.adam.userId as string,
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
});

const posts = () => proxy.requests.filter((r) => r.method === "POST");
const plain = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");

/** Every surface a person or the agent reads for one pending action, as text. */
async function surfaces(started: Awaited<ReturnType<Client["callTool"]>>) {
  const actionId = String(sc(started).action_id);
  const meta = (started._meta as Record<string, { summary_html?: string }> | undefined)?.[
    "signpost/approval"
  ];
  const view = await confirmView(w.db, aliceConsole(), actionId);
  if (!view) throw new Error("no confirm view");
  const consoleHtml = renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client: new QueryClient() },
      createElement(ConfirmScreen, { initial: view, audience: "member" }),
    ),
  );
  const approval = await w.db.approval.findFirst({ where: { actionId }, orderBy: { version: "desc" } });
  const mails = await approvalMails(w.db, "https://signpost.example.test", String(approval?.id));
  const mail = mails[0];
  if (!mail) throw new Error("no approval email");
  return {
    actionId,
    console: plain(consoleHtml),
    app: plain(String(meta?.summary_html ?? "")),
    agent: text(started),
    mailText: mail.text,
    mailHtml: plain(mail.html),
  };
}

const start = (values: Record<string, unknown>) =>
  alice.callTool({
    name: "start_action",
    arguments: { capability: "api_request", patch: { target: TARGET, values } },
  });

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "billing-"));
  const doc = join(dir, "billing.json");
  writeFileSync(doc, JSON.stringify(BILLING));
  [prism, w] = await Promise.all([startPrism(doc), createMcpWorld("sqlite")]);
  proxy = await startRecordingProxy(prism.url);
  const imported = await importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: JSON.stringify(BILLING),
      id: "billing",
      baseUrl: proxy.url,
      readRoles: ["admin", "support"],
      secrets: {},
      self: { origins: [w.url], ports: [] },
    },
    { apply: true },
  );
  if (!imported.ok) throw new Error(`import failed: ${JSON.stringify(imported)}`);
  const rule = await createPermissionRule(w.db, adamConsole(), {
    subjectType: "role",
    subjectId: "member",
    verb: "start",
    pattern: TARGET,
    decision: "allow",
  });
  if (!rule.ok) throw new Error(`rule: ${JSON.stringify(rule)}`);
  alice = await w.connect(w.keys.alice, { faces: "browse,actions" });
}, 90_000);

afterAll(async () => {
  await w?.close();
  await proxy?.stop();
  await prism?.stop();
});

describe("the decision screen tells the exact truth (issue 19)", () => {
  test("unit_price 499.99 'in US dollars' shows as 499.99 with its unit on every surface, never $5.00; the API receives 499.99", async () => {
    const started = await start({ unit_price: 499.99, quantity: 1 });
    expect(sc(started).outcome, text(started)).toBe("applied");
    const s = await surfaces(started);
    for (const [where, shown] of Object.entries(s)) {
      if (where === "actionId") continue;
      expect(shown, where).toContain("499.99 (in US dollars)");
      expect(shown, where).not.toMatch(/\$5\.00|\$499\.99/);
      expect(shown, where).toContain("/accounts/acct_1/charges");
    }
    expect(posts()).toHaveLength(0);
    expect((await approve(w, s.actionId, w.person.alice)).outcome).toBe("applied");
    const done = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: s.actionId, idempotency_key: idem() },
      }),
    );
    expect(done.outcome, JSON.stringify(done)).toBe("applied");
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.body).toBe('{"unit_price":499.99,"quantity":1}');
  });

  test("an object whose name says 'Card payment $5.00' hides none of its keys", async () => {
    const started = await start({
      unit_price: 1,
      payment: { name: "Card payment $5.00", amount: 499.99, payee: "acct_attacker" },
    });
    expect(sc(started).outcome, text(started)).toBe("applied");
    const s = await surfaces(started);
    for (const [where, shown] of Object.entries(s)) {
      if (where === "actionId") continue;
      expect(shown, where).toMatch(/name:? "Card payment \$5\.00"/);
      expect(shown, where).toMatch(/amount:? 499\.99/);
      expect(shown, where).toMatch(/payee:? "acct_attacker"/);
    }
  });

  test("a key the schema does not declare is refused at advance, naming it; nothing is sent", async () => {
    const before = posts().length;
    const started = sc(
      await start({ unit_price: 1, payment: { name: "Card", amount: 5, on_behalf_of: "acct_attacker" } }),
    );
    expect(started.outcome).toBe("rejected");
    expect(JSON.stringify(started.validation_errors)).toContain("payment.on_behalf_of");
    const fine = sc(await start({ unit_price: 1 }));
    expect(fine.outcome).toBe("applied");
    const moved = sc(
      await alice.callTool({
        name: "advance_action",
        arguments: {
          action_id: fine.action_id,
          version: fine.version,
          patch: { values: { unit_price: 1, payment: { name: "x", on_behalf_of: "acct_attacker" } } },
        },
      }),
    );
    expect(moved.outcome).toBe("rejected");
    expect(JSON.stringify(moved.validation_errors)).toContain("payment.on_behalf_of");
    expect(posts().length).toBe(before);
  });

  test("a request with more values than a screen shows is refused at advance, naming the limit; nothing is sent", async () => {
    const before = posts().length;
    const lines = Array.from({ length: 400 }, () => ({ d: "pen", q: 1, p: 1, s: "x" }));
    const started = sc(await start({ lines, unit_price: 499.99, memo: "acct_attacker" }));
    expect(started.outcome).toBe("rejected");
    const errors = JSON.stringify(started.validation_errors);
    expect(errors).toContain("too_many_values");
    expect(errors).toContain("at most 2000");
    // Under the limit, every value is a row on the screen.
    const fine = await start({ lines: lines.slice(0, 10), unit_price: 499.99, memo: "acct_last" });
    expect(sc(fine).outcome, text(fine)).toBe("applied");
    expect((await surfaces(fine)).mailText).toContain('"acct_last"');
    expect(posts().length).toBe(before);
  });

  test("a request whose summary a screen cannot hold is refused at advance, never sent as an empty body", async () => {
    const before = posts().length;
    const started = sc(await start({ unit_price: 1, tags: { ["k".repeat(250)]: "v" } }));
    expect(started.outcome).toBe("rejected");
    expect(JSON.stringify(started.validation_errors)).toContain("summary_unshowable");
    expect(posts().length).toBe(before);
  });

  test("an object or a list as a header value is refused at advance, never sent as [object Object]", async () => {
    const before = posts().length;
    for (const note of [{ a: 1 }, ["a", "b"]]) {
      const started = sc(await start({ unit_price: 1, x_note: note }));
      expect(started.outcome).toBe("rejected");
      expect(JSON.stringify(started.validation_errors)).toContain("not_scalar");
    }
    expect(sc(await start({ unit_price: 1, x_note: "fine" })).outcome).toBe("applied");
    expect(posts().length).toBe(before);
  });

  test("a right-to-left override is shown visibly on every surface, and sent as it was shown", async () => {
    const memo = "acct_\u202E4321";
    const started = await start({ unit_price: 2, memo });
    expect(sc(started).outcome, text(started)).toBe("applied");
    const s = await surfaces(started);
    for (const [where, shown] of Object.entries(s)) {
      if (where === "actionId") continue;
      expect(shown, where).toContain("acct_<U+202E>4321");
      expect(shown, where).not.toContain("\u202E");
    }
    expect((await approve(w, s.actionId, w.person.alice)).outcome).toBe("applied");
    await alice.callTool({
      name: "confirm_action",
      arguments: { action_id: s.actionId, idempotency_key: idem() },
    });
    expect(JSON.parse(posts().at(-1)?.body ?? "{}").memo).toBe(memo);
  });
});

describe("agent text in people's channels stays quoted (issue 19, item 7)", () => {
  test("a permission request's reason cannot forge a 'Grant or deny' line in the admin's email", async () => {
    const forged =
      'need it\n\nGrant or deny: https://evil.example/permissions\r\n<a href="https://evil.example">x</a>';
    const asked = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "signpost://permissions/request",
        fields: { verb: "start", target: "billing://accounts/acct_9/charges/create", reason: forged },
      },
    });
    expect(sc(asked).outcome, text(asked)).toBe("applied");
    const request = await w.db.permissionRequest.findFirst({
      where: { tenantId: "acme" },
      orderBy: { createdAt: "desc" },
    });
    const mails = await permissionRequestMails(w.db, "https://signpost.example.test", String(request?.id));
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      const lines = mail.text.split("\n");
      expect(lines.filter((l) => l.startsWith("Grant or deny:"))).toEqual([
        "Grant or deny: https://signpost.example.test/permissions",
      ]);
      // The agent's words are inside the quote, every line of it marked, line breaks shown.
      const open = lines.findIndex((l) => l.startsWith("┌─ Reason"));
      const close = lines.indexOf("└─ end of the agent's text ─");
      const quoted = lines.slice(open + 1, close);
      expect(quoted.every((l) => l.startsWith("│ "))).toBe(true);
      expect(quoted.map((l) => l.slice(2)).join(" ")).toContain(
        "need it<U+000A><U+000A>Grant or deny: https://evil.example/permissions",
      );
      expect(mail.html).not.toContain('href="https://evil.example');
      expect(mail.html).toContain("<blockquote");
      expect(mail.html.match(/<a /g)).toHaveLength(1);
    }
  });

  test("agent text in the audit export is a quoted cell a spreadsheet reads as text, whatever the separator", async () => {
    await alice.callTool({
      name: "submit",
      arguments: {
        uri: "signpost://permissions/request",
        fields: { verb: "start", target: "billing://accounts/acct_8/charges/create", reason: "x;@SUM(1+1);" },
      },
    });
    const rows = await listAuditEvents(w.db, adamConsole(), { filter: {}, limit: 50 });
    const cells = rows.flatMap((r) => Object.values(r).map(csvCell));
    const hit = cells.find((c) => c.includes("SUM(1+1)"));
    expect(hit).toBeTruthy();
    for (const cell of cells) {
      expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
      // Split at any separator a spreadsheet may use: no piece starts a formula.
      for (const piece of cell.slice(1, -1).split(/[,;\t]/)) expect(piece).not.toMatch(/^[=+\-@\t\r]/);
    }
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("a;@SUM(1+1);b")).toBe(`"a;'@SUM(1+1);b"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
  });
});
