// stays-whole: one property (the checker agrees with the gateway) and its cases on one world.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { PUT as putRule } from "@/app/api/console/permissions/rules/[id]/route";
import { GET as getRules, POST as postRule } from "@/app/api/console/permissions/rules/route";
import { POST as postTest } from "@/app/api/console/permissions/test/route";
import { createSignpostBrowseBackend } from "@/mcp/signpost-browse-backend";
import { navigate } from "@/server/browse/navigate";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { testPermission } from "@/server/gateway/console/test-permission";
import { hashSessionToken } from "@/server/gateway/console-session";
import { DENIAL_STANDS_MS, PERMISSION_REQUESTS_PER_HOUR } from "@/server/gateway/permission-requests";
import { identifyAgent, type TrustedContext } from "@/server/gateway/trusted-context";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";
import { checkoutToConfirmation, idem } from "./gateway-world";

// The console routes read the session cookie through next/headers; outside Next.js the test
// hands them the cookie of a real session row, and the routes run unchanged.
const jar = vi.hoisted(() => ({ token: "" }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (name === "sp_session" && jar.token ? { name, value: jar.token } : undefined),
  }),
}));

const ORIGIN = "http://console.test";

/** Calls a console route handler the way Next.js does: same-origin JSON, the session cookie in the jar. */
async function callRoute(
  handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>,
  method: string,
  body?: unknown,
  params: Record<string, string> = {},
) {
  const res = await handler(
    new Request(`${ORIGIN}/api/console/permissions`, {
      method,
      headers: { origin: ORIGIN, host: new URL(ORIGIN).host, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    { params: Promise.resolve(params) },
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** What the real call's outcome says about its authorization. */
function decisionOf(out: { outcome: string; reason?: unknown }): "allow" | "deny" | "ask" {
  if (out.reason === "permission_denied") return "deny";
  if (out.reason === "permission_required") return "ask";
  return "allow";
}

describeEachProvider("one permission grammar, one matcher (%s)", (provider) => {
  let w: McpWorld;
  const adminSession = async () => {
    const token = randomBytes(24).toString("hex");
    await w.db.session.create({
      data: {
        tokenHash: hashSessionToken(token),
        userId: w.person.adam.userId,
        tenantId: "acme",
        expiresAt: new Date(Date.now() + 3_600_000),
      },
    });
    jar.token = token;
  };
  const adminConsole = () => ({
    sessionId: "test",
    tenantId: "acme",
    tenantName: "Acme",
    userId: w.person.adam.userId,
    email: w.person.adam.email,
    name: w.person.adam.name,
    role: "admin" as const,
  });
  /** A fresh agent of alice's: its permission requests start from zero. */
  async function freshAgent(name: string): Promise<TrustedContext> {
    const minted = mintAgentKey();
    await w.db.agent.create({
      data: {
        tenantId: "acme",
        name,
        userId: w.person.alice.userId,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    const ctx = await identifyAgent(w.db, `Bearer ${minted.key}`);
    if (!ctx) throw new Error("agent not identified");
    return ctx;
  }

  beforeAll(async () => {
    w = await createMcpWorld(provider);
    (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
  });
  afterAll(async () => {
    (globalThis as { __signpostDb?: unknown }).__signpostDb = undefined;
    await w?.close();
  });
  beforeEach(async () => {
    (globalThis as { __signpostDb?: unknown }).__signpostDb = w.db;
    await w.db.permissionRule.deleteMany({});
    await adminSession();
  });

  it("a deny rule saved as `checkout` through the console is enforced on a real start_action, and the checker agrees", async () => {
    const saved = await callRoute(postRule, "POST", {
      subjectType: "tenant",
      verb: "start",
      pattern: "checkout",
      decision: "deny",
    });
    expect(saved.status).toBe(201);
    const listed = await callRoute(getRules, "GET");
    expect(listed.body.rules).toEqual([
      expect.objectContaining({ pattern: "capability:checkout", problem: null }),
    ]);

    const agent = await w.connect(w.keys.alice, { faces: "actions" });
    const real = sc(
      await agent.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 1 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      }),
    );
    expect(real).toMatchObject({ outcome: "rejected", reason: "permission_denied" });
    expect(
      await w.db.action.count({ where: { capability: "checkout", userId: w.person.alice.userId } }),
    ).toBe(0);

    for (const target of ["checkout", "capability:checkout"]) {
      const checked = await callRoute(postTest, "POST", {
        agentId: w.agent.alice.agentId,
        verb: "start",
        target,
      });
      expect(checked).toMatchObject({
        status: 200,
        body: {
          decision: "deny",
          source: "rule",
          target: "capability:checkout",
          rule: { pattern: "capability:checkout" },
        },
      });
    }
  });

  it("`not a pattern at all ***` and other inert patterns are refused on save with a typed error naming the problem", async () => {
    const refused = await callRoute(postRule, "POST", {
      subjectType: "tenant",
      verb: "*",
      pattern: "not a pattern at all ***",
      decision: "deny",
    });
    expect(refused).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "invalid_request",
          details: [{ path: "pattern", message: expect.stringMatching(/whitespace/) }],
        },
      },
    });
    for (const pattern of ["chekout", "capability:nope", "shop://order/{id}/after-sales", "ftp://x/*"]) {
      const r = await callRoute(postRule, "POST", {
        subjectType: "tenant",
        verb: "*",
        pattern,
        decision: "deny",
      });
      expect([pattern, r.status, (r.body.error as { code: string }).code]).toEqual([
        pattern,
        400,
        "invalid_request",
      ]);
    }
    expect(await w.db.permissionRule.count()).toBe(0);
    // Editing an existing rule is held to the same grammar.
    const saved = await callRoute(postRule, "POST", {
      subjectType: "tenant",
      verb: "navigate",
      pattern: "shop://orders",
      decision: "deny",
    });
    const id = (saved.body as { id: string }).id;
    const edited = await callRoute(
      putRule,
      "PUT",
      { subjectType: "tenant", verb: "navigate", pattern: "shop://*** x", decision: "deny" },
      { id },
    );
    expect(edited.status).toBe(400);
    expect((await w.db.permissionRule.findUniqueOrThrow({ where: { id } })).pattern).toBe("shop://orders");
  });

  it("the checker for `start change_ticket_priority` agrees with the real call (the capability's roles apply to both)", async () => {
    const checked = await callRoute(postTest, "POST", {
      agentId: w.agent.alice.agentId,
      verb: "start",
      target: "change_ticket_priority",
    });
    expect(checked).toMatchObject({
      status: 200,
      body: { decision: "ask", target: "capability:change_ticket_priority" },
    });
    const agent = await w.connect(w.keys.alice, { faces: "actions" });
    const real = sc(
      await agent.callTool({
        name: "start_action",
        arguments: {
          capability: "change_ticket_priority",
          entity_id: "tkt_1",
          patch: { priority: "urgent" },
        },
      }),
    );
    expect(decisionOf(real)).toBe("ask");
    // The gateway's authorize that browse uses applies the capability's roles to a capability
    // target too, however it is spelt.
    for (const target of ["capability:change_ticket_priority", "change_ticket_priority"])
      expect(await w.gw.authorize(w.agent.alice, "start", target)).toMatchObject({
        decision: "ask",
        target: "capability:change_ticket_priority",
      });
    // And for support, whom the policy admits, both say allow.
    const sam = await callRoute(postTest, "POST", {
      agentId: w.agent.sam.agentId,
      verb: "start",
      target: "change_ticket_priority",
    });
    expect(sam.body).toMatchObject({ decision: "allow", source: "default" });
  });

  it("property: for generated rules and calls, the checker's answer is what the real gateway operation does", async () => {
    const patterns = [
      "*",
      "**",
      "checkout",
      "capability:checkout",
      "capability:track_*",
      "capability:change_*",
      "capability:*",
      "shop://order/*",
      "shop://order/**",
      "shop://orders",
      "shop://*",
      "helpdesk://ticket/*",
      "helpdesk://**",
    ];
    const ruleArb = fc.record({
      subject: fc.constantFrom("tenant", "role:member", "role:support", "agent:alice", "agent:sam"),
      verb: fc.constantFrom("start", "navigate", "*"),
      pattern: fc.constantFrom(...patterns),
      decision: fc.constantFrom("allow", "deny", "ask"),
    });
    type Call = { who: "alice" | "sam"; verb: "start" | "navigate"; target: string; typed: string };
    const callArb: fc.Arbitrary<Call> = fc.oneof(
      fc.record({
        who: fc.constantFrom("alice" as const, "sam" as const),
        verb: fc.constant("start" as const),
        target: fc.constantFrom("checkout", "track_shipment", "change_ticket_priority", "after_sales"),
        // What an admin types into the checker: with or without the prefix.
        typed: fc.constantFrom("bare", "prefixed"),
      }),
      fc.record({
        who: fc.constantFrom("alice" as const, "sam" as const),
        verb: fc.constant("navigate" as const),
        target: fc.constantFrom("shop://order/ord_paid", "helpdesk://ticket/tkt_1", "shop://orders"),
        typed: fc.constant("uri"),
      }),
    );
    const admin = adminConsole();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleArb, { maxLength: 4 }),
        fc.array(callArb, { minLength: 1, maxLength: 4 }),
        async (rules, calls) => {
          runs++;
          await w.db.permissionRule.deleteMany({});
          for (const r of rules) {
            const [type, who] = r.subject.split(":") as ["tenant" | "role" | "agent", string | undefined];
            const subjectId =
              type === "agent" ? w.agent[who as "alice" | "sam"].agentId : type === "role" ? who : null;
            const created = await createPermissionRule(w.db, admin, {
              subjectType: type,
              subjectId,
              verb: r.verb as "start",
              pattern: r.pattern,
              decision: r.decision as "allow",
            });
            expect(created.ok).toBe(true);
          }
          for (const call of calls) {
            const ctx = w.agent[call.who];
            const typed = call.typed === "prefixed" ? `capability:${call.target}` : call.target;
            const checked = await testPermission(w.db, admin, {
              agentId: ctx.agentId as string,
              verb: call.verb,
              target: typed,
            });
            if (!checked.ok) throw new Error(checked.message);
            let real: string;
            if (call.verb === "start") {
              real = decisionOf(await w.gw.startAction(ctx, { capability: call.target, dry_run: true }));
            } else if (call.target === "shop://orders") {
              // A browse page: authorized by gw.authorize, the same evaluator.
              const backend = createSignpostBrowseBackend(w.gw, ctx, {
                publicUrl: ORIGIN,
                tenantName: "Acme",
              });
              const page = await navigate(backend, call.target);
              real =
                page.title !== "Permission required"
                  ? "allow"
                  : page.markdown.includes("an admin must allow it")
                    ? "ask"
                    : "deny";
            } else {
              const [entity, id] = call.target.startsWith("shop://")
                ? (["order", call.target.slice("shop://order/".length)] as const)
                : (["ticket", call.target.slice("helpdesk://ticket/".length)] as const);
              real = decisionOf(await w.gw.getContext(ctx, { entity, entity_id: id }));
            }
            expect({ rules, call, checker: checked.value.decision }).toEqual({ rules, call, checker: real });
          }
        },
      ),
      { numRuns: 25 },
    );
    expect(runs).toBeGreaterThanOrEqual(25);
  }, 180_000);

  // The volume runs once, on SQLite; PostgreSQL (where concurrent calls really race on separate
  // connections) gets the same waves of 50 at once, fewer of them: still ten times the bound.
  const waves = provider === "sqlite" ? 20 : 4;
  const calls = waves * 50;
  it(`${calls.toLocaleString("en")} distinct permission-requiring calls from one agent store at most ${PERMISSION_REQUESTS_PER_HOUR} requests, and say so`, async () => {
    const agent = await freshAgent("noisy agent");
    await createPermissionRule(w.db, adminConsole(), {
      subjectType: "agent",
      subjectId: agent.agentId,
      verb: "navigate",
      pattern: "shop://order/*",
      decision: "ask",
    });
    const answers: Awaited<ReturnType<typeof w.gw.getContext>>[] = [];
    // In waves of 50 at once, as batches arrive: the bound must hold under concurrency.
    for (let wave = 0; wave < waves; wave++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            w.gw.getContext(agent, { entity: "order", entity_id: `ord_n${wave * 50 + i}` }),
          ),
        )),
      );
    }
    expect(answers).toHaveLength(calls);
    expect(answers.every((a) => a.reason === "permission_required")).toBe(true);
    const stored = await w.db.permissionRequest.count({ where: { agentId: agent.agentId } });
    expect(stored).toBe(PERMISSION_REQUESTS_PER_HOUR);
    const refused = answers.filter((a) => a.permission_request === null);
    expect(refused).toHaveLength(calls - PERMISSION_REQUESTS_PER_HOUR);
    expect(refused[0]?.message).toMatch(/not stored/);
  }, 300_000);

  it("one request per agent and (verb, target), even for concurrent calls; a recent denial is the answer, not a new request", async () => {
    const agent = await freshAgent("repeating agent");
    await createPermissionRule(w.db, adminConsole(), {
      subjectType: "agent",
      subjectId: agent.agentId,
      verb: "start",
      pattern: "capability:track_shipment",
      decision: "ask",
    });
    const call = () => w.gw.startAction(agent, { capability: "track_shipment", entity_id: "ord_transit" });
    const first = await Promise.all(Array.from({ length: 10 }, call));
    const ids = new Set(first.map((a) => (a.permission_request as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(await w.db.permissionRequest.count({ where: { agentId: agent.agentId } })).toBe(1);
    const [requestId] = [...ids] as [string];
    expect(
      await w.gw.decidePermissionRequest(w.person.adam, { request_id: requestId, decision: "deny" }),
    ).toMatchObject({ outcome: "applied" });
    const again = await call();
    expect(again).toMatchObject({
      reason: "permission_required",
      retryable: false,
      permission_request: { id: requestId, status: "denied" },
    });
    expect(again.message).toMatch(/denied/);
    expect(await w.db.permissionRequest.count({ where: { agentId: agent.agentId } })).toBe(1);
    // The explicit request is held to the same rule.
    expect(await w.gw.requestPermission(agent, { verb: "start", target: "track_shipment" })).toMatchObject({
      outcome: "rejected",
      reason: "permission_denied",
    });
    // Once the denial is older than it stands, asking again stores a new request.
    await w.db.permissionRequest.update({
      where: { id: requestId },
      data: { decidedAt: new Date(Date.now() - DENIAL_STANDS_MS - 1000) },
    });
    const later = await call();
    expect((later.permission_request as { id: string; status: string }).status).toBe("pending");
    expect((later.permission_request as { id: string }).id).not.toBe(requestId);
  });

  it("an agent's explicit request names a canonical target, or is refused", async () => {
    const agent = await freshAgent("asking agent");
    const asked = await w.gw.requestPermission(agent, { verb: "start", target: "checkout" });
    expect(asked).toMatchObject({
      outcome: "applied",
      permission_request: { target: "capability:checkout" },
    });
    expect(
      await w.gw.requestPermission(agent, { verb: "navigate", target: "shop://**a**a**!" }),
    ).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(await w.db.permissionRequest.count({ where: { agentId: agent.agentId } })).toBe(1);
  });

  it("reading never writes: dry runs of start, advance and confirm, and a capability form page, store no permission request", async () => {
    const agent = await freshAgent("dry-run agent");
    const admin = adminConsole();
    // An action to advance and confirm, started before any rule.
    const started = await checkoutToConfirmation(w, agent);
    const actionId = started.action_id as string;
    for (const verb of ["start", "advance", "confirm"] as const)
      await createPermissionRule(w.db, admin, {
        subjectType: "agent",
        subjectId: agent.agentId,
        verb,
        pattern: "capability:checkout",
        decision: "ask",
      });
    const dry = [
      await w.gw.startAction(agent, { capability: "checkout", dry_run: true }),
      await w.gw.advanceAction(agent, {
        action_id: actionId,
        version: started.version as number,
        patch: { payment_type: "balance" },
        dry_run: true,
      }),
      await w.gw.confirmAction(agent, { action_id: actionId, idempotency_key: idem("dry"), dry_run: true }),
    ];
    for (const out of dry) {
      expect(out).toMatchObject({
        outcome: "rejected",
        reason: "permission_required",
        permission_request: null,
      });
      expect(out.message).toMatch(/Nothing was stored for a dry run/);
    }
    expect(await w.db.permissionRequest.count({ where: { agentId: agent.agentId } })).toBe(0);

    // A form page previews its capability with a dry run: a member's agent reading the priority
    // form (support's capability) is told permission is needed, and nothing is stored.
    const before = await w.db.permissionRequest.count({ where: { agentId: w.agent.alice.agentId } });
    const browser = await w.connect(w.keys.alice, { faces: "browse" });
    const form = await browser.callTool({
      name: "navigate",
      arguments: { uri: "helpdesk://ticket/tkt_1/priority" },
    });
    expect(text(form)).toMatch(/not granted to role member/);
    expect(await w.db.permissionRequest.count({ where: { agentId: w.agent.alice.agentId } })).toBe(before);
    // The real call still asks: only reading is free of writes.
    const real = await w.gw.startAction(agent, { capability: "checkout" });
    expect(real).toMatchObject({ reason: "permission_required", permission_request: { status: "pending" } });
    expect(await w.db.permissionRequest.count({ where: { agentId: agent.agentId } })).toBe(1);
  });
});
