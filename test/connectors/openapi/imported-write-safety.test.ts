import type { Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { createApiClient } from "@/server/connectors/openapi/openapi-http-client";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { testPermission } from "@/server/gateway/console/test-permission";
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
    // The API applies the DELETE at once and answers after the client's 10 s deadline: the
    // person's approval sent it, and they are told it is not known yet.
    api.holdDeletesMs = 12_000;
    const decided = await approve(w, id, w.person.sam);
    expect(decided).toMatchObject({ outcome: "applied", result: { outcome: "unknown" } });
    expect(decided.result?.next).toMatch(/recovery queue/);
    // The agent's confirm finds that send, and sends nothing again.
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
    api.holdDeletesMs = 12_000;
    expect((await approve(w, id, w.person.sam)).result?.outcome).toBe("unknown");
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
    await rule("confirm", "notes://notes/create", "deny");
    const before = api.writes("POST").length;
    // The person's approval runs the confirm as the agent, with the agent's rules: refused.
    const decided = await approve(w, id, w.person.sam);
    expect(decided).toMatchObject({
      approval: { status: "approved" },
      result: { outcome: "rejected", reason: "permission_denied" },
    });
    expect(api.writes("POST")).toHaveLength(before);
    const out = sc(await call("confirm_action", { action_id: id, idempotency_key: idem() }));
    expect(out).toMatchObject({ outcome: "rejected", reason: "permission_denied" });
    expect(api.writes("POST")).toHaveLength(before);
    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { actionId: id, operation: "action.confirmed" },
      orderBy: { seq: "desc" },
    });
    expect(row.target).toBe("notes://notes/create");
    // The console's checker answers as the gateway enforced.
    const checked = await testPermission(w.db, adamConsole(), {
      agentId: w.agent.sam.agentId as string,
      verb: "confirm",
      target: "notes://notes/create",
    });
    expect(checked.ok && checked.value.decision).toBe("deny");
  });
});

/**
 * Generated rules against real calls: for each run, rules on the notes forms (start, advance,
 * confirm or any verb; one form, a glob, the whole scheme; allow or deny; for support or for
 * members), then Sam submits a write, changes it, a person approves it and Sam confirms. What
 * reached the API, and each step's answer, must be what the rules say: the start on the form's
 * rules (no rule: not granted), advance and confirm on the form's own rules first, then a start
 * no longer allowed stops them, else the capability's default admits support.
 */
describe("generated rules through a real MCP client (seeded)", () => {
  type Rule = { role: "support" | "member"; verb: string; pattern: string; decision: "allow" | "deny" };
  const FORMS = ["notes://notes/create", "notes://notes/n2/delete"] as const;
  const matches = (pattern: string, target: string) =>
    pattern === target ||
    pattern === "notes://**" ||
    (pattern === "notes://notes/*" && /^notes:\/\/notes\/[^/]+$/.test(target));
  const first = (rules: Rule[], verb: string, target: string) =>
    rules.find(
      (r) => r.role === "support" && (r.verb === verb || r.verb === "*") && matches(r.pattern, target),
    );
  const stepAllowed = (rules: Rule[], verb: string, target: string) => {
    const own = first(rules, verb, target);
    if (own) return own.decision === "allow";
    return first(rules, "start", target)?.decision !== "deny";
  };

  test("what each step answers and what reaches the API follow the rules on the form", async () => {
    const ruleArb = fc.record({
      // Sam is support: most rules are about him, and confirm the verb most of them name.
      role: fc.constantFrom("support" as const, "support" as const, "member" as const),
      verb: fc.constantFrom("start", "advance", "confirm", "confirm", "*"),
      pattern: fc.constantFrom(
        "notes://notes/create",
        "notes://notes/*",
        "notes://**",
        "notes://notes/n2/delete",
      ),
      decision: fc.constantFrom("allow" as const, "deny" as const),
    });
    let runs = 0;
    const seen = { confirmDenied: 0, confirmed: 0, advanceDenied: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArb, { maxLength: 4 }),
        fc.constantFrom(...FORMS),
        fc.boolean(),
        // Most runs end with the write granted, so the rules before it are what decides.
        fc.integer({ min: 0, max: 3 }),
        async (generated, form, withEntityId, granted) => {
          const rules: Rule[] = granted
            ? [...generated, { role: "support", verb: "start", pattern: "notes://**", decision: "allow" }]
            : generated;
          runs++;
          await w.db.permissionRule.deleteMany({ where: { tenantId: "acme" } });
          for (const r of rules) {
            const made = await createPermissionRule(w.db, adamConsole(), {
              subjectType: "role",
              subjectId: r.role,
              verb: r.verb,
              pattern: r.pattern,
              decision: r.decision,
            } as never);
            expect(made.ok, JSON.stringify(made)).toBe(true);
          }
          // The console's checker says what the gateway then enforces.
          for (const verb of ["advance", "confirm"] as const) {
            const checked = await testPermission(w.db, adamConsole(), {
              agentId: w.agent.sam.agentId as string,
              verb,
              target: form,
            });
            expect({ verb, rules, allow: checked.ok && checked.value.decision === "allow" }).toEqual({
              verb,
              rules,
              allow: stepAllowed(rules, verb, form),
            });
          }
          const writes = api.writes().length;
          const fields = form.endsWith("create") ? { text: `run ${runs}` } : {};

          // entity_id is settled into the target before authorizing: what is decided is what runs.
          if (withEntityId) {
            const probe = sc(
              await call("start_action", {
                capability: "api_request",
                entity_id: "n9",
                patch: { target: form, values: fields },
              }),
            );
            expect(probe.outcome).toBe("not_found");
            const row = await w.db.auditEvent.findFirstOrThrow({
              where: { tenantId: "acme", operation: "action.started" },
              orderBy: { seq: "desc" },
            });
            expect(row.target).toBe("capability:api_request");
          }

          const submitted = await call("submit", { uri: form, fields });
          const started = sc(submitted);
          const startOk = first(rules, "start", form)?.decision === "allow";
          if (!startOk) {
            expect(started.outcome).toBe("rejected");
            expect(text(submitted)).toMatch(/permission/i);
            expect(api.writes().length).toBe(writes);
            return;
          }
          const id = ((started.links ?? []) as string[])
            .find((l) => /^actions:\/\/[^/]+$/.test(l))
            ?.slice("actions://".length) as string;
          expect(id, JSON.stringify(started)).toBeTruthy();
          const { version } = await w.db.action.findUniqueOrThrow({ where: { id } });
          const advanced = sc(
            await call("advance_action", { action_id: id, version, patch: { values: fields } }),
          );
          const advanceOk = stepAllowed(rules, "advance", form);
          expect({ rules, form, advance: advanced.reason === "permission_denied" }).toEqual({
            rules,
            form,
            advance: !advanceOk,
          });
          expect((await approve(w, id, w.person.sam)).outcome).toBe("applied");
          const confirmed = sc(await call("confirm_action", { action_id: id, idempotency_key: idem() }));
          const confirmOk = stepAllowed(rules, "confirm", form);
          seen[confirmOk ? "confirmed" : "confirmDenied"]++;
          if (!advanceOk) seen.advanceDenied++;
          expect({ rules, form, outcome: confirmed.outcome, sent: api.writes().length - writes }).toEqual({
            rules,
            form,
            outcome: confirmOk ? "applied" : "rejected",
            sent: confirmOk ? 1 : 0,
          });
        },
      ),
      { numRuns: 40, seed: 19_06 },
    );
    expect(runs).toBe(40);
    // The seed reaches every kind of decision the property is about.
    expect(seen.confirmDenied * seen.confirmed * seen.advanceDenied, JSON.stringify(seen)).toBeGreaterThan(0);
  }, 300_000);
});
