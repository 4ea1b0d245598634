import { afterAll, beforeAll, expect, it } from "vitest";
import { listApprovals } from "@/server/gateway/console/list-approvals";
import type { PublishedAuditEvent } from "@/server/gateway/event-stream";
import { identifyAgent } from "@/server/gateway/trusted-context";
import { describeEachProvider } from "../helpers/database";
import { approve, checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

describeEachProvider("trusted context, tenancy, permissions, approvals, audit (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  it("identifies agents only from a valid, unrevoked key", async () => {
    expect(w.agent.alice).toMatchObject({
      kind: "agent",
      tenantId: "acme",
      email: "alice@acme.test",
      role: "member",
    });
    expect(await identifyAgent(w.db, null)).toBeNull();
    expect(await identifyAgent(w.db, "Bearer sp_nope1234_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")).toBeNull();
    expect(await identifyAgent(w.db, `Bearer ${w.keys.gina}x`)).toBeNull();
    const agent = await w.db.agent.findFirstOrThrow({ where: { userId: w.person.gina.userId } });
    await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: new Date() } });
    expect(await identifyAgent(w.db, `Bearer ${w.keys.gina}`)).toBeNull();
    await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: null } });
    expect(await w.gw.startAction(null, { capability: "checkout" })).toMatchObject({
      outcome: "rejected",
      reason: "unauthenticated",
    });
  });

  it("rejects identity fields in the arguments of every operation", async () => {
    const calls: Array<
      [
        string,
        (a: Record<string, unknown>) => Promise<{ outcome: string; reason?: string }>,
        Record<string, unknown>,
      ]
    > = [
      ["search", (a) => w.gw.searchCapabilities(w.agent.alice, a), { query: "refund" }],
      ["start", (a) => w.gw.startAction(w.agent.alice, a), { capability: "checkout" }],
      ["get_context", (a) => w.gw.getContext(w.agent.alice, a), { action_id: "a1" }],
      ["advance", (a) => w.gw.advanceAction(w.agent.alice, a), { action_id: "a1", version: 1, patch: {} }],
      ["confirm", (a) => w.gw.confirmAction(w.agent.alice, a), { action_id: "a1", idempotency_key: idem() }],
      ["verify", (a) => w.gw.verifyAction(w.agent.alice, a), { action_id: "a1" }],
      ["recover", (a) => w.gw.recoverAction(w.agent.alice, a), { action_id: "a1" }],
    ];
    for (const [name, call, base] of calls)
      for (const field of ["tenant_id", "user_id", "role", "agent_id", "acting_user"]) {
        const out = await call({ ...base, [field]: "globex" });
        expect(out, `${name} with ${field}`).toMatchObject({
          outcome: "rejected",
          reason: "invalid_arguments",
        });
      }
  });

  it("makes another tenant's objects not_found, everywhere", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const gina = w.agent.gina;
    expect((await w.gw.getContext(gina, { action_id: id })).outcome).toBe("not_found");
    expect((await w.gw.advanceAction(gina, { action_id: id, version: 1, patch: {} })).outcome).toBe(
      "not_found",
    );
    expect((await w.gw.confirmAction(gina, { action_id: id, idempotency_key: idem() })).outcome).toBe(
      "not_found",
    );
    expect((await w.gw.verifyAction(gina, { action_id: id })).outcome).toBe("not_found");
    expect((await w.gw.recoverAction(gina, { action_id: id })).outcome).toBe("not_found");
    expect(
      (await w.gw.decideApproval(w.person.gina, { action_id: id, version: 1, decision: "approve" })).outcome,
    ).toBe("not_found");
    expect((await w.gw.getContext(gina, { entity: "order", entity_id: "ord_paid" })).outcome).toBe(
      "not_found",
    );
    expect(
      (await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_globex_paid" })).outcome,
    ).toBe("not_found");
    expect(
      (await w.gw.startAction(w.agent.alice, { capability: "after_sales", entity_id: "ord_globex_paid" }))
        .outcome,
    ).toBe("not_found");
    const ginaConsole = { ...w.person.gina, sessionId: "s", tenantName: "Globex", role: "member" as const };
    expect(await listApprovals(w.db, ginaConsole, { status: "pending" })).toEqual([]);
    expect(await listApprovals(w.db, ginaConsole, { status: "decided" })).toEqual([]);
  });

  it("ask → permission_required with a stored request; no agent can grant; an admin grants once or as a rule", async () => {
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "role",
        subjectId: "member",
        verb: "start",
        pattern: "capability:track_*",
        decision: "ask",
        position: 10,
      },
    });
    const ask = () =>
      w.gw.startAction(w.agent.alice, { capability: "track_shipment", entity_id: "ord_transit" });
    const first = await ask();
    expect(first).toMatchObject({
      outcome: "rejected",
      reason: "permission_required",
      permission_request: { status: "pending" },
    });
    const again = await ask();
    const requestId = (first.permission_request as { id: string }).id;
    expect((again.permission_request as { id: string }).id).toBe(requestId); // one pending request, not one per call
    // The agent tries to grant itself; so does a support person.
    expect(
      await w.gw.decidePermissionRequest(w.agent.alice, { request_id: requestId, decision: "grant" }),
    ).toMatchObject({ outcome: "rejected", reason: "admin_required" });
    expect(
      await w.gw.decidePermissionRequest(w.agent.adam, { request_id: requestId, decision: "grant" }),
    ).toMatchObject({ outcome: "rejected", reason: "admin_required" });
    expect(
      await w.gw.decidePermissionRequest(w.person.sam, { request_id: requestId, decision: "grant" }),
    ).toMatchObject({ outcome: "rejected", reason: "admin_required" });
    expect(
      await w.gw.decidePermissionRequest(w.person.adam, {
        request_id: requestId,
        decision: "grant",
        mode: "once",
      }),
    ).toMatchObject({ outcome: "applied", status: "granted" });
    expect((await ask()).outcome).toBe("applied");
    expect((await ask()).reason).toBe("permission_required");
    const second = await w.db.permissionRequest.findFirstOrThrow({
      where: { status: "pending", agentId: w.agent.alice.agentId },
    });
    await w.gw.decidePermissionRequest(w.person.adam, {
      request_id: second.id,
      decision: "grant",
      mode: "rule",
    });
    expect((await ask()).outcome).toBe("applied");
    expect((await ask()).outcome).toBe("applied");
    const audit = await w.db.auditEvent.findMany({
      where: { operation: { in: ["permission.granted", "permission.denied"] } },
    });
    expect(audit.map((a) => a.outcome)).toEqual(expect.arrayContaining(["applied", "rejected"]));
    await w.db.permissionRule.deleteMany({ where: { OR: [{ id: rule.id }, { subjectType: "agent" }] } });
  });

  it("who approves is the policy's: Alice's charge is Alice's decision, not an admin's or support's", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const decide = (who: typeof w.person.alice) =>
      w.gw.decideApproval(who, { action_id: id, version: 1, decision: "approve" });
    expect(await decide(w.person.adam)).toMatchObject({
      outcome: "rejected",
      reason: "not_your_approval",
      message: "Only Alice can decide this action",
    });
    expect(await decide(w.person.sam)).toMatchObject({ outcome: "rejected", reason: "not_your_approval" });
    expect(await decide(w.person.gina)).toMatchObject({ outcome: "not_found", reason: "action_not_found" });
    // An agent context is never a person, whoever it acts for.
    expect(
      await w.gw.decideApproval(w.agent.alice, { action_id: id, version: 1, decision: "approve" }),
    ).toMatchObject({ outcome: "rejected", reason: "person_required" });
    expect(await w.db.approval.findFirstOrThrow({ where: { actionId: id } })).toMatchObject({
      status: "pending",
      decidedById: null,
    });
    const ok = await decide(w.person.alice);
    expect(ok).toMatchObject({
      outcome: "applied",
      approval: { status: "approved", decided_by: { name: "Alice", role: "member" } },
    });
    expect(ok.message).toMatch(/^Approved by Alice at \d\d:\d\d UTC/);
    // The agent's next answer names the decider.
    const seen = await w.gw.getContext(w.agent.alice, { action_id: id });
    expect(seen.approval).toMatchObject({
      status: "approved",
      decided_by: { name: "Alice", role: "member" },
    });
    // Her approval carried it out: nothing is left for the agent to call.
    expect(seen).toMatchObject({ status: "completed", next_actions: [] });
  });

  it("a rejection reaches the agent with the person's reason and a consistent next step", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    expect(
      await w.gw.decideApproval(w.person.alice, {
        action_id: id,
        version: 1,
        decision: "reject",
        reason: "Too expensive, use the coupon",
      }),
    ).toMatchObject({
      outcome: "applied",
      approval: { status: "rejected", decided_by: { name: "Alice" } },
    });
    const confirmed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(confirmed).toMatchObject({
      outcome: "rejected",
      reason: "approval_rejected",
      message:
        'Alice rejected this: "Too expensive, use the coupon"; change what they objected to (that asks them again) or stop',
      approval: {
        status: "rejected",
        reason: "Too expensive, use the coupon",
        decided_by: { name: "Alice" },
      },
    });
    expect(confirmed.next_actions.map((n) => n.tool)).toEqual(["advance_action"]);
    expect(confirmed.next_actions[0]?.description).toContain("Too expensive, use the coupon");
    const context = await w.gw.getContext(w.agent.alice, { action_id: id });
    expect(context.next_actions.map((n) => n.tool)).toEqual(["advance_action"]);
    expect(context.approval).toMatchObject({ status: "rejected", reason: "Too expensive, use the coupon" });
    // Changing what she objected to asks her again (a new version, a new pending approval).
    const changed = await w.gw.advanceAction(w.agent.alice, {
      action_id: id,
      version: context.version,
      patch: { items: [{ product_id: "prod_mug", quantity: 1 }] },
    });
    expect(changed).toMatchObject({ outcome: "applied", version: 2, approval: { status: "pending" } });
    expect(changed.next_actions.find((n) => n.tool === "confirm_action")?.requires_user_approval).toBe(true);
  });

  it("an approval expires: the person cannot grant it late, the agent is told and the person is asked again", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const first = await w.db.approval.findFirstOrThrow({ where: { actionId: id } });
    // Default lifetime: 30 minutes from the request.
    expect((first.expiresAt?.getTime() ?? 0) - first.createdAt.getTime()).toBeGreaterThanOrEqual(29 * 60_000);
    expect((first.expiresAt?.getTime() ?? 0) - first.createdAt.getTime()).toBeLessThanOrEqual(31 * 60_000);
    await w.db.approval.update({
      where: { id: first.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      await w.gw.decideApproval(w.person.alice, { action_id: id, version: 1, decision: "approve" }),
    ).toMatchObject({ outcome: "conflict", reason: "approval_expired" });
    expect((await w.db.approval.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("expired");
    const context = await w.gw.getContext(w.agent.alice, { action_id: id });
    expect(context.approval).toMatchObject({ status: "expired" });
    const renewed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(renewed).toMatchObject({
      outcome: "rejected",
      reason: "approval_expired",
      version: 2,
      approval: { status: "pending", version: 2 },
    });
    // A granted approval that was not used in time (its run did not happen) is void too.
    expect(await grant(w, id)).toMatchObject({ outcome: "applied" });
    await w.db.approval.updateMany({
      where: { actionId: id, version: 2 },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const late = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(late).toMatchObject({ outcome: "rejected", reason: "approval_expired", version: 3 });
    expect(await approve(w, id)).toMatchObject({ outcome: "applied" });
    expect(await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() })).toMatchObject(
      {
        outcome: "applied",
      },
    );
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(1);
  });

  it("audits every operation before answering, publishes it, and never stores a secret", async () => {
    const seen: PublishedAuditEvent[] = [];
    const unsubscribe = w.gw.subscribe((e) => seen.push(e));
    const before = (await w.db.auditCounter.findUnique({ where: { tenantId: "acme" } }))?.seq ?? 0;
    await w.gw.searchCapabilities(w.agent.alice, { query: "我要退货退款" });
    const start = await checkoutToConfirmation(w);
    // A secret-looking value smuggled into arguments is redacted in the audit row.
    await w.gw.advanceAction(w.agent.alice, {
      action_id: start.action_id,
      version: 1,
      patch: { api_key: w.legacy.apiKeys.acme, note: `Bearer ${w.keys.alice}` },
    });
    await approve(w, start.action_id as string);
    const confirmed = await w.gw.confirmAction(w.agent.alice, {
      action_id: start.action_id,
      idempotency_key: idem(),
    });
    await w.gw.verifyAction(w.agent.alice, { action_id: start.action_id });
    unsubscribe();
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", seq: { gt: before } },
      orderBy: { seq: "asc" },
    });
    expect(rows.map((r) => r.operation)).toEqual([
      "capability.searched",
      "action.started",
      "action.advanced",
      "approval.approved",
      // The approval's own run, then the agent's confirm that finds it done.
      "action.confirmed",
      "action.confirmed",
      "action.verified",
    ]);
    expect(seen.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
    const confirmRow = rows.find((r) => r.operation === "action.confirmed");
    expect(confirmRow).toMatchObject({
      outcome: "applied",
      actionId: start.action_id,
      actionKey: (confirmed.effect as { action_key: string }).action_key,
      decision: "allow:default",
      capability: "checkout",
    });
    expect(confirmRow?.latencyMs).toBeGreaterThan(0);
    // Scan everything Signpost stored for any secret it ever held.
    const secrets = [
      ...Object.values(w.keys),
      w.legacy.apiKeys.acme,
      w.legacy.apiKeys.globex,
      process.env.SIGNPOST_MASTER_KEY as string,
    ];
    const stored = JSON.stringify([
      await w.db.auditEvent.findMany(),
      await w.db.action.findMany(),
      await w.db.actionEvent.findMany(),
      await w.db.effect.findMany(),
      await w.db.approval.findMany(),
      await w.db.permissionRequest.findMany(),
    ]);
    for (const s of secrets)
      expect(stored.includes(s), `a secret leaked into storage: ${s.slice(0, 6)}…`).toBe(false);
    // Nor into any response.
    expect(JSON.stringify(confirmed)).not.toContain(w.legacy.apiKeys.acme);
  });

  it("support works the recovery queue as a person; members and agents cannot", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    await grant(w, id);
    await w.legacy.injectFault({
      match: "POST /v1/payments",
      mode: "commit_then_timeout",
      count: 1,
      latency_ms: 6000,
    });
    expect(
      (await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() })).outcome,
    ).toBe("unknown");
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
    expect(await w.gw.listRecoveryQueue(w.person.alice)).toEqual([]);
    expect(await w.gw.listRecoveryQueue(w.agent.adam)).toEqual([]);
    expect(
      await w.gw.resolveRecovery(w.person.alice, { action_id: id, resolution: "applied" }),
    ).toMatchObject({
      reason: "support_required",
    });
    // Another user's agent cannot even see it; support, as a person, verifies across the tenant.
    expect((await w.gw.verifyAction(w.agent.sam, { action_id: id })).outcome).toBe("not_found");
    const verified = await w.gw.verifyAction(w.person.sam, { action_id: id });
    expect(verified).toMatchObject({
      outcome: "applied",
      status: "completed",
      verification: { status: "paid" },
    });
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).not.toContain(id);
    const audit = await w.db.auditEvent.findFirstOrThrow({
      where: { actionId: id, operation: "action.verified" },
      orderBy: { seq: "desc" },
    });
    expect(audit).toMatchObject({
      face: "console",
      userId: w.person.sam.userId,
      agentId: null,
      outcome: "applied",
    });
    await w.legacy.clearFaults();
  });
});
