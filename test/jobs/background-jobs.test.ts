import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type JobSpec, signpostJobs, startBackgroundJobs } from "@/server/jobs/background-jobs";
import { expireApprovals } from "@/server/jobs/expire-approvals";
import { pruneRecords } from "@/server/jobs/prune-records";
import { reconcileEffects } from "@/server/jobs/reconcile-effects";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "../gateway/gateway-world";
import { describeEachProvider, insertAuditRows } from "../helpers/database";

// Issue 10: "unknown effects wait for an agent's verify or a person; nothing reconciles them in
// the background, and approvals never expire on their own." The background jobs: each does what
// the system of record or the clock says, never re-sends a write, and is idempotent, so every
// instance may run it at once.

async function legacyPayments(w: World, reference: string) {
  const res = await fetch(`${w.legacy.url}/v1/payments?reference=${encodeURIComponent(reference)}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  const body = (await res.json()) as { data?: unknown[] } | unknown[];
  return Array.isArray(body) ? body : (body.data ?? []);
}

async function approvedCheckout(w: World) {
  const start = await checkoutToConfirmation(w);
  expect(start.outcome).toBe("applied");
  const id = start.action_id as string;
  // The decision without its run (a stop between them): these jobs reconcile what the confirm left.
  expect((await grant(w, id)).outcome).toBe("applied");
  return id;
}

/** A confirm whose payment the legacy system committed, but whose answer never arrived: `unknown`. */
async function unknownCheckout(w: World) {
  const id = await approvedCheckout(w);
  await w.legacy.injectFault({
    match: "POST /v1/payments",
    mode: "commit_then_timeout",
    count: 1,
    latency_ms: 6000,
  });
  const first = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
  expect(first).toMatchObject({ outcome: "unknown", effect: { status: "unknown" } });
  return id;
}

/** What a sender that died right after claiming leaves: `pending`, its lease run out, nothing sent. */
async function abandonedClaim(w: World) {
  const id = await approvedCheckout(w);
  const action = await w.db.action.update({ where: { id }, data: { status: "executing" } });
  await w.db.effect.create({
    data: {
      actionId: id,
      actionKey: `sp_${id}_v${action.version}`,
      tenantId: action.tenantId,
      kind: "shop.payment",
      status: "pending",
      request: {
        idempotency_key: "died-0001",
        version: action.version,
        digest: (action.state as { digest?: string }).digest ?? null,
        lease_until: new Date(0).toISOString(),
      },
      attempts: 1,
    },
  });
  return id;
}

const reconcile = (w: World, options = {}) => reconcileEffects(w.db, w.gw.reconcileEffect, options);

describeEachProvider("background jobs (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.clearFaults());

  it("reconcile: an unknown effect the system of record shows is recorded applied and the action completed, without a second send", async () => {
    const id = await unknownCheckout(w);
    const { actionKey } = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
    const report = await reconcile(w);
    expect(report).toMatchObject({ applied: 1 });
    expect(await w.db.effect.findUniqueOrThrow({ where: { actionId: id } })).toMatchObject({
      status: "applied",
    });
    expect(await w.db.action.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "completed",
      node: "VERIFIED",
    });
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
    // On record as the system's doing, in the action's tenant.
    const row = await w.db.auditEvent.findFirstOrThrow({
      where: { operation: "effect.reconciled", actionId: id },
    });
    expect(row).toMatchObject({
      face: "system",
      userId: null,
      agentId: null,
      tenantId: "acme",
      outcome: "applied",
    });
    // Settled: a second run has nothing to look at.
    expect((await reconcile(w)).checked).toBe(0);
  }, 120_000);

  it("reconcile: an abandoned claim the system of record does not show is noted and left for recover; nothing is sent", async () => {
    const id = await abandonedClaim(w);
    const { actionKey } = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    const report = await reconcile(w);
    expect(report).toMatchObject({ notFound: 1, applied: 0 });
    expect(await legacyPayments(w, actionKey)).toHaveLength(0);
    const action = await w.db.action.findUniqueOrThrow({ where: { id } });
    expect(action.status).toBe("executing");
    expect((action.state as { verification?: { found?: boolean } }).verification).toMatchObject({
      found: false,
    });
    expect((await w.gw.listRecoveryQueue(w.person.sam)).map((q) => q.action_id)).toContain(id);
    // Asked once: the next runs leave it alone until the recheck time has passed.
    expect((await reconcile(w)).checked).toBe(0);
    expect((await reconcile(w, { recheckAfterMs: 0 })).notFound).toBe(1);
    expect(await legacyPayments(w, actionKey)).toHaveLength(0);
    // The agent (or a person) recovers it with the original key: one payment.
    const recovered = await w.gw.recoverAction(w.agent.alice, { action_id: id });
    expect(recovered).toMatchObject({ outcome: "applied" });
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
  }, 120_000);

  it("reconcile: a claim whose sender's lease still runs is not touched (it may be on the wire)", async () => {
    const id = await abandonedClaim(w);
    const effect = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    await w.db.effect.update({
      where: { id: effect.id },
      data: {
        request: { ...(effect.request as object), lease_until: new Date(Date.now() + 60_000).toISOString() },
      },
    });
    const before = await w.db.action.findUniqueOrThrow({ where: { id } });
    await reconcile(w);
    expect(await w.db.action.findUniqueOrThrow({ where: { id } })).toEqual(before);
    expect(await w.db.auditEvent.count({ where: { operation: "effect.reconciled", actionId: id } })).toBe(0);
  }, 120_000);

  it("expire: approvals past their time become expired once, with one audit row, however many instances run it", async () => {
    const start = await checkoutToConfirmation(w);
    const id = start.action_id as string;
    const approval = await w.db.approval.findFirstOrThrow({ where: { actionId: id, status: "pending" } });
    await w.db.approval.update({
      where: { id: approval.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const audit = w.gw.recordAudit;
    const runs = await Promise.all([expireApprovals(w.db, audit), expireApprovals(w.db, audit)]);
    expect(runs.reduce((n, r) => n + r.expired, 0)).toBe(1);
    expect(await w.db.approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({
      status: "expired",
    });
    expect(await w.db.auditEvent.count({ where: { operation: "approval.expired", actionId: id } })).toBe(1);
    expect((await expireApprovals(w.db, audit)).expired).toBe(0);
    // A fresh one is left alone.
    const other = await checkoutToConfirmation(w);
    await expireApprovals(w.db, audit);
    expect(
      await w.db.approval.findFirstOrThrow({ where: { actionId: other.action_id as string } }),
    ).toMatchObject({ status: "pending" });
  }, 120_000);

  it("prune: used nonces past expiry, approval tasks past their keep time, connect attempts past expiry, and audit rows past the retention; 0 keeps audit rows forever", async () => {
    const now = Date.now();
    const task = {
      tenantId: "acme",
      agentId: "agent_x",
      actionId: "act_x",
      version: 1,
      tool: "confirm_action",
      status: "completed",
    };
    await w.db.mcpTask.createMany({
      data: [
        { ...task, id: `task-old-${now}`, expiresAt: new Date(now - 1000) },
        { ...task, id: `task-live-${now}`, expiresAt: new Date(now + 600_000) },
      ],
    });
    await w.db.consumedNonce.createMany({
      data: [
        { nonce: `old-${now}`, expiresAt: new Date(now - 1000) },
        { nonce: `live-${now}`, expiresAt: new Date(now + 600_000) },
      ],
    });
    const attempt = {
      tenantId: "acme",
      userId: "u_x",
      connector: "notes",
      codeVerifier: "{}",
    };
    await w.db.connectAttempt.createMany({
      data: [
        { ...attempt, stateHash: `attempt-old-${now}`, expiresAt: new Date(now - 1000) },
        {
          ...attempt,
          stateHash: `attempt-used-${now}`,
          expiresAt: new Date(now - 1000),
          usedAt: new Date(now - 5000),
        },
        { ...attempt, stateHash: `attempt-live-${now}`, expiresAt: new Date(now + 600_000) },
      ],
    });
    const base = {
      tenantId: "globex",
      face: "system",
      operation: "test.old",
      arguments: {},
      outcome: "applied",
      latencyMs: 0,
    };
    await insertAuditRows(w.db, [
      { ...base, createdAt: new Date(now - 40 * 86_400_000) },
      { ...base, createdAt: new Date(now - 40 * 86_400_000) },
      { ...base, createdAt: new Date(now - 10 * 86_400_000) },
    ]);
    const kept = await pruneRecords(w.db, { auditRetentionDays: 0, batchSize: 1 });
    expect(kept.auditRows).toBe(0);
    expect(kept.nonces).toBeGreaterThanOrEqual(1);
    expect(await w.db.consumedNonce.findUnique({ where: { nonce: `old-${now}` } })).toBeNull();
    expect(await w.db.consumedNonce.findUnique({ where: { nonce: `live-${now}` } })).not.toBeNull();
    expect(kept.tasks).toBeGreaterThanOrEqual(1);
    expect(await w.db.mcpTask.findUnique({ where: { id: `task-old-${now}` } })).toBeNull();
    expect(await w.db.mcpTask.findUnique({ where: { id: `task-live-${now}` } })).not.toBeNull();
    expect(kept.connectAttempts).toBeGreaterThanOrEqual(2);
    const attempts = await w.db.connectAttempt.findMany({ where: { stateHash: { endsWith: `-${now}` } } });
    expect(attempts.map((a) => a.stateHash)).toEqual([`attempt-live-${now}`]);
    const pruned = await pruneRecords(w.db, { auditRetentionDays: 30, batchSize: 1 });
    expect(pruned.auditRows).toBe(2);
    expect(await w.db.auditEvent.count({ where: { operation: "test.old" } })).toBe(1);
    // Numbering goes on from where it was: the next row is not a reused number.
    const last = await w.db.auditCounter.findUniqueOrThrow({ where: { tenantId: "globex" } });
    const next = await w.gw.recordAudit(
      { tenantId: "globex", userId: null, face: "system" },
      { ...base, operation: "test.after" },
    );
    expect(next.seq).toBe(last.seq + 1);
  }, 120_000);

  it(`the runner (${provider === "postgres" ? "pg-boss" : "in-process"}): two instances at once reconcile an unknown effect once`, async () => {
    const id = await unknownCheckout(w);
    const { actionKey } = await w.db.effect.findUniqueOrThrow({ where: { actionId: id } });
    const jobs = (): JobSpec[] =>
      signpostJobs(w.db, w.gw, { intervalS: 1, auditRetentionDays: 0 }).filter(
        (j) => j.name === "reconcile-effects",
      );
    const instances = await Promise.all([
      startBackgroundJobs(w.database.url, jobs()),
      startBackgroundJobs(w.database.url, jobs()),
    ]);
    try {
      expect(instances.map((i) => i.via)).toEqual(
        provider === "postgres" ? ["pg-boss", "pg-boss"] : ["in-process", "in-process"],
      );
      for (;;) {
        const action = await w.db.action.findUniqueOrThrow({ where: { id } });
        if (action.status === "completed") break;
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await Promise.all(instances.map((i) => i.stop()));
    }
    expect(await legacyPayments(w, actionKey)).toHaveLength(1);
    const applied = await w.db.auditEvent.count({
      where: { operation: "effect.reconciled", actionId: id, outcome: "applied" },
    });
    expect(applied).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
