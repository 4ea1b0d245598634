// stays-whole: one rule set (the recovery queue's guards) on one world per provider.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

async function faultsLeft(w: World): Promise<number> {
  const res = await fetch(`${w.legacy.url}/admin/faults`, { headers: { "x-admin-key": w.legacy.adminKey } });
  const body = (await res.json()) as unknown[] | { data?: unknown[]; faults?: unknown[] };
  return (Array.isArray(body) ? body : (body.data ?? body.faults ?? [])).length;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function approvedCheckout(w: World) {
  const start = await checkoutToConfirmation(w);
  expect(start.outcome).toBe("applied");
  const id = start.action_id as string;
  expect((await grant(w, id)).outcome).toBe("applied");
  return id;
}

/** Everything a resolution or a recovery could have written about an action. */
async function ledgerOf(w: World, actionId: string) {
  const action = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
  const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId } });
  const events = await w.db.actionEvent.findMany({ where: { actionId }, orderBy: { id: "asc" } });
  return {
    action: { status: action.status, node: action.node, version: action.version, state: action.state },
    effect: {
      status: effect.status,
      attempts: effect.attempts,
      error: effect.error,
      externalId: effect.externalId,
      request: effect.request,
    },
    events: events.map((e) => e.kind),
  };
}

/**
 * Confirms while the payment lookup is down: the effect applies, the at-once verification cannot
 * see it, so the action stays applied-but-unverified (what a lookup outage leaves behind).
 */
async function confirmUnverified(w: World, id: string) {
  await w.legacy.injectFault({ match: "GET /v1/payments", mode: "down" });
  try {
    return await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
  } finally {
    await w.legacy.clearFaults();
  }
}

const lastSeq = async (w: World) => (await w.db.auditEvent.findFirst({ orderBy: { seq: "desc" } }))?.seq ?? 0;

const lastAudit = (w: World, actionId: string, operation: string) =>
  w.db.auditEvent.findFirstOrThrow({ where: { actionId, operation }, orderBy: { seq: "desc" } });

describeEachProvider("recovery only for what is stuck (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.clearFaults());

  it("support cannot rewrite a completed, applied charge: conflict, ledger unchanged, refusal audited", async () => {
    const id = await approvedCheckout(w);
    const confirmed = await confirmUnverified(w, id);
    expect(confirmed).toMatchObject({ outcome: "applied", status: "applied" });
    // Applied but not yet verified: already not a queue item.
    const early = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "customer says no charge",
    });
    expect(early).toMatchObject({
      outcome: "conflict",
      reason: "not_in_recovery_queue",
      status: "applied",
      effect: { status: "applied" },
    });
    expect((await w.gw.verifyAction(w.agent.alice, { action_id: id })).status).toBe("completed");
    const before = await ledgerOf(w, id);
    expect(before).toMatchObject({ action: { status: "completed" }, effect: { status: "applied" } });

    for (const resolution of ["not_applied", "applied"] as const) {
      const out = await w.gw.resolveRecovery(w.person.sam, { action_id: id, resolution, note: "checked" });
      expect(out).toMatchObject({
        outcome: "conflict",
        reason: "not_in_recovery_queue",
        action_id: id,
        status: "completed",
        effect: { status: "applied" },
      });
      expect(out.message).toContain("not in the recovery queue");
    }
    expect(await ledgerOf(w, id)).toEqual(before);
    expect(before.events).not.toContain("recovery_resolved");
    // The refusal is on record like any console mutation.
    expect(await lastAudit(w, id, "action.recovery_resolved")).toMatchObject({
      outcome: "conflict",
      userId: w.person.sam.userId,
      face: "console",
    });
    // And nothing was set up for a second send: a later confirm replays the one charge.
    const again = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(again).toMatchObject({ outcome: "applied", reason: "already_confirmed" });
    expect(
      await legacyPayments(w, (await w.db.effect.findUniqueOrThrow({ where: { actionId: id } })).actionKey),
    ).toHaveLength(1);
  });

  it("support cannot fail a charge that is still being sent (pending inside its lease)", async () => {
    const id = await approvedCheckout(w);
    // The legacy system holds the payment well inside the 3 s timeout: the claim stays pending.
    await w.legacy.injectFault({ match: "POST /v1/payments", mode: "latency", latency_ms: 2000, count: 1 });
    const confirming = w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    const deadline = Date.now() + 30_000;
    while ((await faultsLeft(w)) > 0 && Date.now() < deadline) await sleep(20);
    expect(await faultsLeft(w)).toBe(0); // the payment is on the wire now
    const out = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "looks stuck",
    });
    expect(out).toMatchObject({
      outcome: "conflict",
      reason: "not_in_recovery_queue",
      effect: { status: "pending" },
    });
    expect(out.message).toContain("still being sent");
    const confirmed = await confirming;
    expect(confirmed).toMatchObject({ outcome: "applied", effect: { status: "applied" } });
    const after = await ledgerOf(w, id);
    expect(after.effect.error).toBeNull();
    expect(after.events).not.toContain("recovery_resolved");
    expect(
      await legacyPayments(w, (await w.db.effect.findUniqueOrThrow({ where: { actionId: id } })).actionKey),
    ).toHaveLength(1);
  });

  it("a real queue item (unknown) is still resolved, atomically: effect, action and history together", async () => {
    const id = await approvedCheckout(w);
    await w.legacy.injectFault({
      match: "POST /v1/payments",
      mode: "commit_then_timeout",
      count: 1,
      latency_ms: 6000,
    });
    const first = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(first).toMatchObject({ outcome: "unknown", effect: { status: "unknown" } });
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
    // Members still cannot.
    expect(
      await w.gw.resolveRecovery(w.person.alice, { action_id: id, resolution: "applied", note: "x" }),
    ).toMatchObject({ outcome: "rejected", reason: "support_required" });
    const out = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "applied",
      note: "found the payment in the legacy back office",
    });
    expect(out).toMatchObject({ outcome: "applied", action_id: id });
    const after = await ledgerOf(w, id);
    expect(after).toMatchObject({
      action: { status: "completed" },
      effect: { status: "applied", error: "found the payment in the legacy back office" },
    });
    expect(after.events.filter((k) => k === "recovery_resolved")).toHaveLength(1);
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).not.toContain(id);
    expect(await lastAudit(w, id, "action.recovery_resolved")).toMatchObject({ outcome: "applied" });
    // Resolved once; a second resolution finds nothing queued.
    expect(
      await w.gw.resolveRecovery(w.person.sam, { action_id: id, resolution: "not_applied", note: "oops" }),
    ).toMatchObject({ outcome: "conflict", reason: "not_in_recovery_queue" });
  }, 60_000);

  it("a resolution whose history row cannot be written changes nothing: the item stays queued", async () => {
    const id = await approvedCheckout(w);
    await w.legacy.injectFault({
      match: "POST /v1/payments",
      mode: "commit_then_timeout",
      count: 1,
      latency_ms: 6000,
    });
    const first = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(first).toMatchObject({ outcome: "unknown", effect: { status: "unknown" } });
    const ledgerBefore = await ledgerOf(w, id);
    // The effect and the action are updated first; the history insert then fails.
    const unblock = await refuseInserts(w, "ActionEvent", "actionId", id);
    const before = await lastSeq(w);
    const failed = await w.gw.resolveRecovery(w.person.sam, {
      action_id: id,
      resolution: "not_applied",
      note: "checked the legacy admin",
    });
    await unblock();
    expect(failed).toMatchObject(INTERNAL_ERROR);
    expect(failed.message).not.toMatch(/trigger/);
    // The failed attempt is on record like any console mutation.
    expect(await lastAudit(w, id, "action.recovery_resolved")).toMatchObject({
      seq: expect.toSatisfy((seq: number) => seq > before),
      outcome: "rejected",
      userId: w.person.sam.userId,
      face: "console",
    });
    expect(await ledgerOf(w, id)).toEqual(ledgerBefore);
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
  }, 60_000);

  it("recover_action on an applied-but-unverified action is refused (not_in_next_actions) and records nothing", async () => {
    const id = await approvedCheckout(w);
    const confirmed = await confirmUnverified(w, id);
    expect(confirmed).toMatchObject({ outcome: "applied", status: "applied" });
    expect(confirmed.next_actions.map((n) => n.tool)).toEqual(["verify_action"]);
    const before = await ledgerOf(w, id);
    for (const ctx of [w.agent.alice, w.person.sam]) {
      const out = await w.gw.recoverAction(ctx, { action_id: id });
      expect(out).toMatchObject({ outcome: "rejected", reason: "not_in_next_actions", status: "applied" });
      expect(out.next_actions.map((n) => n.tool)).toEqual(["verify_action"]);
    }
    const after = await ledgerOf(w, id);
    expect(after).toEqual(before);
    expect(after.events).not.toContain("recovered");
    // verify_action, which was on the list, settles it.
    expect(await w.gw.verifyAction(w.agent.alice, { action_id: id })).toMatchObject({
      outcome: "applied",
      status: "completed",
    });
    expect((await ledgerOf(w, id)).events).not.toContain("recovered");
  });

  /**
   * Alice's charge, stuck where recover re-sends it: what a recovery that died between writing
   * the ledger and the action leaves behind (the effect failed, the action still unknown).
   */
  async function stuckCharge() {
    const id = await approvedCheckout(w);
    await w.legacy.injectFault({ match: "POST /v1/payments", mode: "down" });
    const down = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
    expect(down).toMatchObject({ outcome: "temporarily_unavailable", effect: { status: "failed" } });
    await w.legacy.clearFaults();
    await w.db.action.update({ where: { id }, data: { status: "unknown" } });
    const before = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    const offered = await w.gw.getContext(w.person.sam, { action_id: id });
    expect(offered.next_actions.map((n) => n.tool)).toContain("recover_action");
    return { id, before };
  }

  it("support's concurrent recovers of someone else's stuck charge: one send, every loser sees the outcome", async () => {
    const { id, before } = await stuckCharge();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => w.gw.recoverAction(w.person.sam, { action_id: id })),
    );
    // Support recovers across the tenant: losing the claim race must not turn into not_found,
    // nor into any other answer than the one send's: applied, by the winner or as its replay.
    expect(results.map((r) => r.outcome)).toEqual(Array(8).fill("applied"));
    for (const r of results)
      expect(r).toMatchObject({ action_id: id, effect: { status: "applied", action_key: before.actionKey } });
    const after = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    expect(after).toMatchObject({ status: "applied", attempts: before.attempts + 1 });
    expect(await legacyPayments(w, before.actionKey)).toHaveLength(1);
  }, 60_000);

  // The race CI lost now and then: a recover whose claim-loser answer came only after the
  // winner had settled everything read an applied effect under an action no longer unknown and
  // was refused (not_in_next_actions). Arriving after the winner makes it certain.
  it("a recover that arrives after another's recovery settled the charge answers that send's outcome", async () => {
    const { id, before } = await stuckCharge();
    const first = await w.gw.recoverAction(w.person.sam, { action_id: id });
    expect(first).toMatchObject({ outcome: "applied", status: "applied" });
    const late = await w.gw.recoverAction(w.person.sam, { action_id: id });
    expect(late).toMatchObject({
      outcome: "applied",
      reason: "idempotent_replay",
      status: "applied",
      effect: { status: "applied", action_key: before.actionKey },
    });
    expect(late.next_actions.map((n) => n.tool)).toEqual(["verify_action"]);
    const after = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    expect(after).toMatchObject({ status: "applied", attempts: before.attempts + 1 });
    expect(await legacyPayments(w, before.actionKey)).toHaveLength(1);
  }, 60_000);

  // A recover that reads the winner's claim while its send is on the wire waits for the send,
  // like a loser of the claim itself, instead of answering effect_in_progress at once. The test
  // above could only lose that race now and then; this one makes it certain.
  it("a recover that arrives while the winner's send is on the wire sees the winner's outcome", async () => {
    const { id, before } = await stuckCharge();
    // The winner's payment is held at the legacy system, well inside the 3 s timeout.
    await w.legacy.injectFault({ match: "POST /v1/payments", mode: "latency", latency_ms: 1500, count: 1 });
    const winner = w.gw.recoverAction(w.person.sam, { action_id: id });
    const deadline = Date.now() + 30_000;
    while ((await faultsLeft(w)) > 0 && Date.now() < deadline) await sleep(20);
    expect(await faultsLeft(w)).toBe(0); // the payment is on the wire now
    const late = await Promise.all(
      Array.from({ length: 3 }, () => w.gw.recoverAction(w.person.sam, { action_id: id })),
    );
    expect(await winner).toMatchObject({ outcome: "applied", effect: { status: "applied" } });
    expect(late.map((r) => [r.outcome, r.effect])).toEqual(
      Array(3).fill([
        "applied",
        expect.objectContaining({ status: "applied", action_key: before.actionKey }),
      ]),
    );
    const after = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    expect(after).toMatchObject({ status: "applied", attempts: before.attempts + 1 });
    expect(await legacyPayments(w, before.actionKey)).toHaveLength(1);
  }, 60_000);
});

let triggers = 0;

/**
 * Makes the database itself refuse inserting into `table` a row whose `column` is `value` (a
 * trigger, on both providers): a real failure half-way through a multi-step write, no mocks.
 * Returns what removes it again.
 */
async function refuseInserts(w: World, table: string, column: string, value: string) {
  const name = `sp_test_refuse_${triggers++}`;
  const when = `NEW."${column}" = '${value.replace(/'/g, "''")}'`;
  if (w.provider === "postgres") {
    await w.db.$executeRawUnsafe(
      `CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by test trigger'; END $$ LANGUAGE plpgsql`,
    );
    await w.db.$executeRawUnsafe(
      `CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`,
    );
    return async () => {
      await w.db.$executeRawUnsafe(`DROP TRIGGER ${name} ON "${table}"`);
      await w.db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
    };
  }
  await w.db.$executeRawUnsafe(
    `CREATE TRIGGER ${name} BEFORE INSERT ON "${table}" WHEN ${when} BEGIN SELECT RAISE(ABORT, 'refused by test trigger'); END`,
  );
  return async () => {
    await w.db.$executeRawUnsafe(`DROP TRIGGER ${name}`);
  };
}

/** What a decision whose transaction the database refused answers: nothing applied, nothing leaked. */
const INTERNAL_ERROR = { outcome: "rejected", reason: "internal_error", retryable: false };

describeEachProvider("people's decisions are all-or-nothing (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  async function pendingRequest(target: string) {
    const asked = await w.gw.requestPermission(w.agent.alice, { verb: "navigate", target });
    expect(asked.outcome).toBe("applied");
    return (asked.permission_request as { id: string }).id;
  }

  it("a grant-as-rule whose rule cannot be stored leaves the request pending and no rule", async () => {
    // The rule's insert fails after the request was marked granted.
    const unblock = await refuseInserts(w, "PermissionRule", "pattern", "shop://orders/blocked");
    const requestId = await pendingRequest("shop://orders/blocked");
    const rulesBefore = await w.db.permissionRule.count();
    const before = await lastSeq(w);
    const failed = await w.gw.decidePermissionRequest(w.person.adam, {
      request_id: requestId,
      decision: "grant",
      mode: "rule",
    });
    expect(failed).toMatchObject(INTERNAL_ERROR);
    expect(failed.message).not.toMatch(/trigger/);
    expect(
      await w.db.auditEvent.findMany({
        where: { seq: { gt: before }, operation: "permission.granted" },
        select: { outcome: true, target: true, userId: true },
      }),
    ).toEqual([
      { outcome: "rejected", target: `permission_request:${requestId}`, userId: w.person.adam.userId },
    ]);
    expect(await w.db.permissionRequest.findUniqueOrThrow({ where: { id: requestId } })).toMatchObject({
      status: "pending",
      grantMode: null,
      decidedById: null,
    });
    expect(await w.db.permissionRule.count()).toBe(rulesBefore);
    // Once the obstacle is gone the same request can still be granted: request and rule together.
    await unblock();
    const granted = await w.gw.decidePermissionRequest(w.person.adam, {
      request_id: requestId,
      decision: "grant",
      mode: "rule",
    });
    expect(granted).toMatchObject({ outcome: "applied", status: "granted" });
    const rule = await w.db.permissionRule.findUniqueOrThrow({ where: { id: granted.rule_id as string } });
    expect(rule).toMatchObject({ subjectId: w.agent.alice.agentId, pattern: "shop://orders/blocked" });
    expect(await w.db.permissionRequest.findUniqueOrThrow({ where: { id: requestId } })).toMatchObject({
      status: "granted",
      grantMode: "rule",
    });
  });

  it("two admins granting one request at once: one wins, one rule", async () => {
    const requestId = await pendingRequest("shop://orders/race");
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        w.gw.decidePermissionRequest(w.person.adam, {
          request_id: requestId,
          decision: "grant",
          mode: "rule",
        }),
      ),
    );
    expect(results.filter((r) => r.outcome === "applied")).toHaveLength(1);
    expect(await w.db.permissionRule.count({ where: { pattern: "shop://orders/race" } })).toBe(1);
  });

  it("an approval whose history row cannot be written stays pending, and its action undecided", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const version = start.version as number;
    const statusBefore = (await w.db.action.findUniqueOrThrow({ where: { id } })).status;
    // The approval row and the action are updated first; the history insert then fails.
    const unblock = await refuseInserts(w, "ActionEvent", "actionId", id);
    const before = await lastSeq(w);
    const failed = await w.gw.decideApproval(w.person.alice, { action_id: id, version, decision: "approve" });
    await unblock();
    expect(failed).toMatchObject(INTERNAL_ERROR);
    expect(failed.message).not.toMatch(/trigger/);
    expect(await lastAudit(w, id, "approval.approved")).toMatchObject({
      seq: expect.toSatisfy((seq: number) => seq > before),
      outcome: "rejected",
      userId: w.person.alice.userId,
    });
    expect(await w.db.approval.findFirstOrThrow({ where: { actionId: id, version } })).toMatchObject({
      status: "pending",
      decidedById: null,
    });
    expect((await w.db.action.findUniqueOrThrow({ where: { id } })).status).toBe(statusBefore);
    // Nothing half-done blocks the retry.
    expect(
      await w.gw.decideApproval(w.person.alice, { action_id: id, version, decision: "approve" }),
    ).toMatchObject({ outcome: "applied", approval: { status: "approved" }, result: { outcome: "applied" } });
    // The approval carried it out (and it was verified at once).
    expect((await w.db.action.findUniqueOrThrow({ where: { id } })).status).toBe("completed");
  });

  it("concurrent approve and reject: one decision, and the action and its history agree with it", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const version = start.version as number;
    const decisions = await Promise.all(
      (["approve", "reject", "approve", "reject"] as const).map((decision) =>
        w.gw.decideApproval(w.person.alice, { action_id: id, version, decision }),
      ),
    );
    const winners = decisions.filter((d) => d.outcome === "applied");
    expect(winners).toHaveLength(1);
    const status = winners[0]?.approval?.status;
    expect(["approved", "rejected"]).toContain(status);
    // An approval that won carried the action out, once; a rejection sent nothing.
    expect((await w.db.action.findUniqueOrThrow({ where: { id } })).status).toBe(
      status === "approved" ? "completed" : "rejected",
    );
    expect(await w.db.effect.count({ where: { actionId: id } })).toBe(status === "approved" ? 1 : 0);
    const events = await w.db.actionEvent.findMany({ where: { actionId: id, node: "APPROVAL" } });
    expect(events.map((e) => e.kind)).toEqual([status]);
  });
});
