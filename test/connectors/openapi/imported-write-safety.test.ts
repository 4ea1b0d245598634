import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createApiClient } from "@/server/connectors/openapi/openapi-http-client";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { approve, idem } from "../../gateway/gateway-world";
import { NOTES_DOCUMENT, type NotesApi, startNotesApi } from "../../helpers/notes-api";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

/**
 * The attacks of issue 19 on imported writes (items 5 and 6), through a real MCP client against
 * a real HTTP API with soft deletes that records what it received: an approved write is never
 * sent twice, a header that cannot be sent is refused when it is typed, and a deny rule on a
 * form stops its confirm.
 */

let w: McpWorld;
let api: NotesApi;
let sam: Client;

const adamConsole = (): ConsoleContext => ({
  sessionId: "test",
  tenantId: "acme",
  tenantName: "Acme",
  userId: w.person.adam.userId as string,
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
});

async function rule(verb: string, pattern: string, decision: "allow" | "deny") {
  const made = await createPermissionRule(w.db, adamConsole(), {
    subjectType: "role",
    subjectId: "support",
    verb,
    pattern,
    decision,
  } as never);
  if (!made.ok) throw new Error(JSON.stringify(made));
}

const call = async (name: string, args: Record<string, unknown>) => sam.callTool({ name, arguments: args });

/** Sam submits a write form; the action waits for a person. */
async function submitted(uri: string, fields: Record<string, unknown> = {}): Promise<string> {
  const out = await call("submit", { uri, fields });
  const id = ((sc(out).links ?? []) as string[])
    .find((l) => /^actions:\/\/[^/]+$/.test(l))
    ?.slice("actions://".length);
  if (!id) throw new Error(`no action started: ${text(out)}`);
  return id;
}

beforeAll(async () => {
  [api, w] = await Promise.all([startNotesApi(), createMcpWorld("sqlite")]);
  const imported = await importOpenApiConnector(
    w.db,
    cliActor("acme", "test"),
    {
      text: JSON.stringify(NOTES_DOCUMENT),
      id: "notes",
      baseUrl: api.url,
      readRoles: ["admin", "support"],
      secrets: {},
      self: { origins: [w.url], ports: [] },
    },
    { apply: true },
  );
  if (!imported.ok) throw new Error(`import failed: ${JSON.stringify(imported)}`);
  sam = await w.connect(w.keys.sam, { faces: "browse,actions" });
}, 90_000);

afterAll(async () => {
  await w?.close();
  await api?.stop();
});

beforeEach(async () => {
  api.holdDeletesMs = 0;
  await w.db.permissionRule.deleteMany({ where: { tenantId: "acme", pattern: { startsWith: "notes://" } } });
});

describe("an approved imported write is never sent twice", () => {
  test("a DELETE applied after the deadline is unknown; its record still reads back (soft delete); recover sends nothing again and a person gets it", async () => {
    await rule("start", "notes://notes/n1/delete", "allow");
    const id = await submitted("notes://notes/n1/delete");
    expect((await approve(w, id, w.person.sam)).outcome).toBe("applied");
    // The API applies the DELETE at once and answers after the client's 10 s deadline.
    api.holdDeletesMs = 12_000;
    const confirmed = sc(await call("confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("unknown");
    expect(api.writes("DELETE")).toHaveLength(1);

    // A 200 read-back decides nothing: not "did not happen", so nothing is offered as a re-send.
    const verified = sc(await call("verify_action", { action_id: id }));
    expect(verified).toMatchObject({ outcome: "unknown", reason: "queued_for_recovery" });
    expect(String(verified.message)).toMatch(/still reads back.*nothing was re-sent/s);

    const recovered = sc(await call("recover_action", { action_id: id }));
    expect(recovered).toMatchObject({ outcome: "unknown", reason: "queued_for_recovery" });
    expect(api.writes("DELETE")).toHaveLength(1);
    const queue = await w.gw.listRecoveryQueue(w.person.sam);
    expect(queue.map((q) => q.action_id)).toContain(id);
    const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    expect(effect).toMatchObject({ status: "unknown", attempts: 1 });
  }, 90_000);

  test("where the document declares an idempotency key, recover re-sends with the same key (the API deduplicates)", async () => {
    await rule("start", "notes://tags/t1/delete", "allow");
    const id = await submitted("notes://tags/t1/delete");
    expect((await approve(w, id, w.person.sam)).outcome).toBe("applied");
    api.holdDeletesMs = 12_000;
    const confirmed = sc(await call("confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("unknown");
    api.holdDeletesMs = 0;
    const recovered = sc(await call("recover_action", { action_id: id }));
    expect(recovered.outcome, JSON.stringify(recovered)).toBe("applied");
    const sent = api.writes("DELETE").filter((r) => r.path === "/tags/t1");
    expect(sent).toHaveLength(2);
    const keys = sent.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^sp_/);
    expect(keys[1]).toBe(keys[0]);
  }, 90_000);
});

describe("a header value that cannot be sent", () => {
  test("CR/LF in a header field is refused at submit, naming the field: nothing approved, sent or queued", async () => {
    await rule("start", "notes://notes/create", "allow");
    const before = api.requests.length;
    const effectsBefore = await w.db.effect.count();
    const out = await call("submit", {
      uri: "notes://notes/create",
      fields: { text: "hello", x_note_tag: "urgent\r\nX-Forged: 1" },
    });
    const result = sc(out);
    expect(result.outcome, text(out)).toBe("rejected");
    expect(JSON.stringify(result.validation_errors ?? text(out))).toMatch(/x_note_tag/);
    expect(text(out)).toMatch(/control character/);
    expect(api.requests.length).toBe(before);
    expect(await w.db.effect.count()).toBe(effectsBefore);
  });

  test("a request the HTTP client refuses before sending is refused, never unknown", async () => {
    const before = api.requests.length;
    const client = createApiClient({ baseUrl: api.url, secrets: {}, schemes: new Map() });
    const op = {
      id: "createNote",
      method: "post",
      path: "/notes",
      parameters: [],
      security: [],
    } as never;
    const answer = await client.send({
      operation: op,
      path: {},
      query: {},
      headers: { "X-Note-Tag": "a\r\nX-Forged: 1" },
      body: { text: "x" },
    });
    expect(answer).toMatchObject({ kind: "refused" });
    expect(JSON.stringify(answer)).toContain("X-Note-Tag");
    expect(api.requests.length).toBe(before);
  });
});

describe("permissions decide on the form, at every step", () => {
  test("a deny rule on a form stops the confirm of an approved write; nothing reaches the API", async () => {
    await rule("start", "notes://notes/create", "allow");
    const id = await submitted("notes://notes/create", { text: "keep me" });
    expect((await approve(w, id, w.person.sam)).outcome).toBe("applied");
    await rule("confirm", "notes://notes/create", "deny");
    const before = api.writes("POST").length;
    const out = sc(await call("confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "permission_denied" });
    expect(api.writes("POST")).toHaveLength(before);
    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { actionId: id, operation: "action.confirmed" },
      orderBy: { seq: "desc" },
    });
    expect(row.target).toBe("notes://notes/create");
  });
});
