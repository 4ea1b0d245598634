import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { confirmView } from "@/server/gateway/console/confirm-view";
import { describeEachProvider } from "../helpers/database";
import { approve, checkoutToConfirmation, createWorld, idem, type World } from "./gateway-world";

/** Faults the legacy system still holds (a held request has taken its fault). */
async function faultsLeft(w: World): Promise<number> {
  const res = await fetch(`${w.legacy.url}/admin/faults`, { headers: { "x-admin-key": w.legacy.adminKey } });
  const body = (await res.json()) as unknown[] | { data?: unknown[]; faults?: unknown[] };
  return (Array.isArray(body) ? body : (body.data ?? body.faults ?? [])).length;
}

/** Payments the legacy system holds for one action key (the `reference` Signpost sends). */
async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

/**
 * A host without elicitation (the model sees only text) used to cost the agent a second call:
 * start_action, then — after the person approved on their own screen — confirm_action. The
 * person's approval now carries the action out itself, through the same pipeline and ledger.
 */
describeEachProvider("a person's approval applies the change (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  it("approving pays once at the legacy system with no confirm_action; a later confirm returns that result", async () => {
    await w.legacy.reset();
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    // The agent is told plainly that the approval is the last step.
    const confirmNext = start.next_actions.find((n) => n.tool === "confirm_action");
    expect(confirmNext?.description).toMatch(/approval carries it out/i);

    const decided = await approve(w, id);
    expect(decided).toMatchObject({
      outcome: "applied",
      approval: { status: "approved" },
      result: { outcome: "applied", status: "completed", external_id: expect.stringMatching(/\S/) },
    });
    expect(decided.message).toMatch(/^Approved by Alice at .*; done: /);
    const key = `sp_${id}_v1`;
    expect(await legacyPayments(w, key)).toHaveLength(1);

    // On record as the person's approval-triggered confirm, acting as the action's own agent.
    const rows = await w.db.auditEvent.findMany({ where: { actionId: id }, orderBy: { seq: "asc" } });
    const confirmRow = rows.find((r) => r.operation === "action.confirmed");
    expect(rows.map((r) => r.operation)).toEqual(["action.started", "approval.approved", "action.confirmed"]);
    expect(confirmRow).toMatchObject({
      face: "console",
      agentId: w.agent.alice.agentId,
      userId: w.agent.alice.userId,
      outcome: "applied",
      actionKey: key,
      decision: expect.stringMatching(/^allow/),
    });
    expect(confirmRow?.arguments).toMatchObject({ approved_by: w.person.alice.userId, idempotency_key: key });

    // The agent comes back anyway: the same result, nothing sent again.
    const later = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(later).toMatchObject({
      outcome: "applied",
      reason: "applied_on_approval",
      external_id: decided.result?.external_id,
      next_actions: [],
    });
    expect(later.message).toMatch(/when the user approved it/);
    expect(await legacyPayments(w, key)).toHaveLength(1);
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(1);
    const read = await w.gw.getContext(w.agent.alice, { action_id: id });
    expect(read).toMatchObject({ status: "completed", next_actions: [] });
  });

  it("a rejection runs nothing", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const out = await w.gw.decideApproval(w.person.alice, { action_id: id, version: 1, decision: "reject" });
    expect(out).toMatchObject({ outcome: "applied", approval: { status: "rejected" } });
    expect(out.result).toBeUndefined();
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(0);
  });

  it("an approval of an agent whose key was revoked since is recorded but sends nothing, and says why", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    await w.db.agent.update({
      where: { id: w.agent.alice.agentId as string },
      data: { revokedAt: new Date() },
    });
    try {
      const out = await approve(w, id);
      expect(out).toMatchObject({
        outcome: "applied",
        approval: { status: "approved" },
        result: { outcome: "rejected", reason: "agent_revoked" },
      });
      expect(out.result?.next).toMatch(/Nothing was sent/);
      expect(await w.db.effect.count({ where: { actionId: id } })).toBe(0);
      expect(await legacyPayments(w, `sp_${id}_v1`)).toHaveLength(0);
      // The approval that ran nothing is on record, naming the approval and the person.
      const rows = await w.db.auditEvent.findMany({ where: { actionId: id }, orderBy: { seq: "asc" } });
      expect(rows.map((r) => r.operation)).toEqual([
        "action.started",
        "approval.approved",
        "action.confirmed",
      ]);
      expect(rows[2]).toMatchObject({ outcome: "rejected", userId: w.person.alice.userId });
      expect(rows[2]?.message).toMatch(/no longer has access/);
      expect(rows[2]?.arguments).toMatchObject({
        reason: "agent_revoked",
        approval_id: out.approval?.id,
        approved_by: w.person.alice.userId,
      });
    } finally {
      await w.db.agent.update({ where: { id: w.agent.alice.agentId as string }, data: { revokedAt: null } });
    }
  });

  it("where the policy names an admin, the admin's approval runs it as the requester's own agent, not as the admin", async () => {
    await w.legacy.reset();
    // A cross-team move: the requester (Sam) may not decide it, an admin may.
    const start = await w.gw.startAction(w.agent.sam, {
      capability: "assign_ticket",
      entity_id: "tkt_1",
      patch: { assignee_id: "tm_sid" },
    });
    expect(start).toMatchObject({ status: "awaiting_approval" });
    const id = start.action_id as string;
    expect(await approve(w, id, w.person.sam)).toMatchObject({ reason: "not_your_approval" });
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(0);
    const byAdam = await approve(w, id, w.person.adam);
    expect(byAdam).toMatchObject({ approval: { status: "approved" }, result: { outcome: "applied" } });
    const row = await w.db.auditEvent.findFirst({ where: { actionId: id, operation: "action.confirmed" } });
    expect(row).toMatchObject({ agentId: w.agent.sam.agentId, userId: w.agent.sam.userId, face: "console" });
    expect(row?.arguments).toMatchObject({ approved_by: w.person.adam.userId });
    const ticket = (await (
      await fetch(`${w.legacy.url}/v1/tickets/tkt_1`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as { assignee_id: string };
    expect(ticket.assignee_id).toBe("tm_sid");
  });

  it("where the agent's confirm rule says ask, the click files no request in the agent's name and says what happens next", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent.alice.agentId as string,
        verb: "confirm",
        pattern: "*",
        decision: "ask",
        position: 1,
      },
    });
    try {
      const out = await approve(w, id);
      expect(out).toMatchObject({
        approval: { status: "approved" },
        result: { outcome: "rejected", reason: "permission_required" },
      });
      expect(out.result?.next).toMatch(/Nothing was sent: .*needs an admin's permission/);
      expect(out.result?.next).toMatch(/next confirm_action asks an admin/);
      expect(out.result?.next).not.toMatch(/is told why/);
      expect(await w.db.permissionRequest.count({ where: { agentId: w.agent.alice.agentId } })).toBe(0);
      expect(await w.db.effect.count({ where: { actionId: id } })).toBe(0);
      // The agent's own confirm asks, as the screen said.
      const asked = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(asked).toMatchObject({ reason: "permission_required" });
      expect(await w.db.permissionRequest.count({ where: { agentId: w.agent.alice.agentId } })).toBe(1);
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
      await w.db.permissionRequest.deleteMany({ where: { agentId: w.agent.alice.agentId } });
    }
  });

  it("a refusal by the system says it was sent and refused, not that nothing was sent", async () => {
    await w.legacy.reset();
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    // The payment is held on its way in; meanwhile the store credit is spent elsewhere, so the
    // system itself refuses it (409 insufficient_balance) after Signpost's own checks passed.
    await w.legacy.injectFault({ match: "POST /v1/payments", mode: "latency", count: 1, latency_ms: 1500 });
    const decided = approve(w, id);
    const deadline = Date.now() + 10_000;
    while ((await faultsLeft(w)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const store = new Database(w.legacy.dbPath);
    try {
      store.prepare("UPDATE customers SET balance = 0 WHERE tenant_id = 'acme'").run();
    } finally {
      store.close();
    }
    const out = await decided;
    expect(out.result).toMatchObject({ outcome: "rejected", reason: "insufficient_balance" });
    expect(out.result?.next).toMatch(/^It was sent, and the system refused it: /);
    expect(out.result?.next).not.toMatch(/Nothing was sent/);
    // The confirm screen, seen again, has the system's reason to say so too.
    const alice = w.person.alice;
    const view = await confirmView(
      w.db,
      {
        ...alice,
        sessionId: "s",
        tenantName: "Acme",
        email: "alice@acme.test",
        name: "Alice",
        role: "member",
      },
      id,
    );
    expect(view).toMatchObject({ actionStatus: "approved", lastError: { code: "insufficient_balance" } });
    await w.legacy.reset();
  });

  it("an unknown result is reported as not known yet, and that Signpost verifies it", async () => {
    await w.legacy.reset();
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    await w.legacy.injectFault({
      match: "POST /v1/payments",
      mode: "commit_then_timeout",
      count: 1,
      latency_ms: 6000,
    });
    const out = await approve(w, id);
    expect(out.result).toMatchObject({ outcome: "unknown" });
    expect(out.message).not.toMatch(/not done/);
    expect(out.message).toMatch(/; sent, result not known yet \(Signpost verifies it/);
    await w.legacy.reset();
  });
});
