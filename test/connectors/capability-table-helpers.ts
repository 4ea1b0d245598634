import { describe, expect, it } from "vitest";
import type { GatewayOutcome } from "@/server/gateway/create-gateway";
import { idem, type World } from "../gateway/gateway-world";

export type Who = "alice" | "adam" | "sam" | "gina";
export type Run = (w: World) => Promise<GatewayOutcome>;
export interface Expectation {
  outcome: GatewayOutcome["outcome"];
  reason?: string;
  node?: string;
  /** A validation error code that must be present. */
  code?: string;
  missing?: string[];
  status?: string;
  requires_confirmation?: boolean;
  /** A substring of the message (e.g. the reason in words). */
  says?: RegExp;
  /** The business result the person approves: fields of the summary (amounts, chosen options). */
  summary?: Record<string, unknown>;
  /** What the effect produced (after verify). */
  result?: Record<string, unknown>;
  /** The tools offered next, in order (an empty list: the flow is finished or refused). */
  next?: string[];
  /** Capabilities the answer offers to start (start_action next actions). */
  offers?: string[];
}
export type Row = [name: string, run: Run, expected: Expectation];

/** valid: the request goes through; incomplete: something is missing; refused: it may not or cannot happen. */
export const BUCKETS = ["valid", "incomplete", "refused"] as const;
export type Table = Record<(typeof BUCKETS)[number], Row[]>;

/** Each capability's table holds at least `min` cases in every bucket: one assertion per table. */
export function bucketSizes(suites: Record<string, Table>, min: number) {
  describe("table sizes", () => {
    for (const [capability, table] of Object.entries(suites))
      it(`${capability}: at least ${min} cases in each bucket`, () => {
        const sizes = Object.fromEntries(BUCKETS.map((b) => [b, table[b].length]));
        expect(Math.min(...Object.values(sizes)), JSON.stringify(sizes)).toBeGreaterThanOrEqual(min);
      });
  });
}

export function check(out: GatewayOutcome, exp: Expectation) {
  const brief = JSON.stringify({
    outcome: out.outcome,
    reason: out.reason,
    node: out.node,
    missing: out.missing,
    errors: out.validation_errors,
    message: out.message,
  });
  expect(out.outcome, brief).toBe(exp.outcome);
  if (exp.reason) expect(out.reason, brief).toBe(exp.reason);
  if (exp.node) expect(out.node, brief).toBe(exp.node);
  if (exp.status) expect(out.status, brief).toBe(exp.status);
  if (exp.missing) expect(out.missing, brief).toEqual(exp.missing);
  if (exp.requires_confirmation !== undefined)
    expect(out.requires_confirmation, brief).toBe(exp.requires_confirmation);
  if (exp.code)
    expect(
      (out.validation_errors as Array<{ code: string }> | undefined)?.map((e) => e.code) ?? [],
      brief,
    ).toContain(exp.code);
  if (exp.says)
    expect(`${out.message} ${JSON.stringify(out.validation_errors ?? [])}`, brief).toMatch(exp.says);
  if (exp.summary) expect(out.summary, brief).toMatchObject(exp.summary);
  if (exp.result) expect(out.result, brief).toMatchObject(exp.result);
  if (exp.next)
    expect(
      out.next_actions.map((n) => n.tool),
      brief,
    ).toEqual(exp.next);
  if (exp.offers)
    expect(
      out.next_actions.filter((n) => n.tool === "start_action").map((n) => n.args?.capability),
      brief,
    ).toEqual(expect.arrayContaining(exp.offers));
}

export const start =
  (
    who: Who,
    capability: string,
    entity_id?: string,
    patch?: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Run =>
  (w) =>
    w.gw.startAction(w.agent[who], {
      capability,
      ...(entity_id ? { entity_id } : {}),
      ...(patch ? { patch } : {}),
      ...extra,
    });

/** Raw arguments, as a model could send them (to prove the schema refuses identity fields). */
export const startRaw =
  (who: Who, args: Record<string, unknown>): Run =>
  (w) =>
    w.gw.startAction(w.agent[who], args);

/** Starts, then sends an advance with an old version. */
export const staleAdvance =
  (
    who: Who,
    capability: string,
    entity_id: string | undefined,
    patch: Record<string, unknown>,
    change: Record<string, unknown>,
  ): Run =>
  async (w) => {
    const s = await start(who, capability, entity_id, patch)(w);
    await w.gw.advanceAction(w.agent[who], { action_id: s.action_id, version: s.version, patch: change });
    return w.gw.advanceAction(w.agent[who], { action_id: s.action_id, version: s.version, patch: change });
  };

/** Starts, then advances with the given patch (e.g. a locked or unknown field). */
export const startThenAdvance =
  (
    who: Who,
    capability: string,
    entity_id: string | undefined,
    patch: Record<string, unknown>,
    change: Record<string, unknown>,
    as: Who = who,
  ): Run =>
  async (w) => {
    const s = await start(who, capability, entity_id, patch)(w);
    return w.gw.advanceAction(w.agent[as], { action_id: s.action_id, version: s.version, patch: change });
  };

/** Starts to the confirmation node and confirms without any approval. */
export const confirmUnapproved =
  (
    who: Who,
    capability: string,
    entity_id: string | undefined,
    patch: Record<string, unknown>,
    as: Who = who,
  ): Run =>
  async (w) => {
    const s = await start(who, capability, entity_id, patch)(w);
    return w.gw.confirmAction(w.agent[as], { action_id: s.action_id, idempotency_key: idem() });
  };

/** Starts to the confirmation node; then someone tries to decide the approval. */
export const decideAs =
  (
    who: Who,
    capability: string,
    entity_id: string | undefined,
    patch: Record<string, unknown>,
    decider: { kind: "agent" | "person"; who: Who },
  ): Run =>
  async (w) => {
    const s = await start(who, capability, entity_id, patch)(w);
    const ctx = decider.kind === "agent" ? w.agent[decider.who] : w.person[decider.who];
    return w.gw.decideApproval(ctx, {
      action_id: s.action_id,
      version: s.version,
      decision: "approve",
    }) as Promise<GatewayOutcome>;
  };

/** Runs with a permission rule in place for the agent of `who`, then removes it. */
export const withRule =
  (who: Who, rule: { verb: string; pattern: string; decision: "allow" | "deny" | "ask" }, run: Run): Run =>
  async (w) => {
    const created = await w.db.permissionRule.create({
      data: {
        tenantId: w.agent[who].tenantId,
        subjectType: "agent",
        subjectId: w.agent[who].agentId ?? null,
        position: -100,
        ...rule,
      },
    });
    try {
      return await run(w);
    } finally {
      await w.db.permissionRule.delete({ where: { id: created.id } });
    }
  };

/**
 * Starts to the confirmation node, gets approval when needed (from the user, or from the person
 * the capability's policy names), confirms, verifies.
 */
export const execute =
  (
    who: Who,
    capability: string,
    entity_id: string | undefined,
    patch: Record<string, unknown>,
    approver: Who = who,
  ): Run =>
  async (w) => {
    const s = await start(who, capability, entity_id, patch)(w);
    if (s.outcome !== "applied") return s;
    if (s.status === "awaiting_approval") {
      const d = await w.gw.decideApproval(w.person[approver], {
        action_id: s.action_id as string,
        version: s.version as number,
        decision: "approve",
      });
      if (d.outcome !== "applied") return d as GatewayOutcome;
    }
    const c = await w.gw.confirmAction(w.agent[who], { action_id: s.action_id, idempotency_key: idem() });
    if (c.outcome !== "applied") return c;
    return w.gw.verifyAction(w.agent[who], { action_id: s.action_id });
  };

/**
 * A ticket changed at the legacy system while the person reviewed it: their approval's run
 * re-checks it and sends nothing. The answer is what their approval gave (the reason they are
 * shown) with what the agent is offered next.
 */
export const ticketChangedUnderApproval =
  (who: Who, capability: string, ticket: string, patch: Record<string, unknown>, approver: Who = who): Run =>
  async (w) => {
    const s = await start(who, capability, ticket, patch)(w);
    const needsApproval = s.status === "awaiting_approval";
    await fetch(`${w.legacy.url}/v1/tickets/${ticket}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
      body: JSON.stringify({ subject: `changed ${Date.now()}` }),
    });
    // Nobody must approve: the agent's confirm re-checks and sends nothing.
    if (!needsApproval)
      return w.gw.confirmAction(w.agent[who], { action_id: s.action_id, idempotency_key: idem() });
    const d = await w.gw.decideApproval(w.person[approver], {
      action_id: s.action_id as string,
      version: s.version as number,
      decision: "approve",
    });
    if (!d.result) return d as GatewayOutcome;
    const now = await w.gw.getContext(w.agent[who], { action_id: s.action_id });
    const { outcome, reason, message } = d.result;
    return { outcome, reason, message, retryable: true, next_actions: now.next_actions };
  };

export const ready: Expectation = { outcome: "applied", requires_confirmation: true };
export const verified: Expectation = { outcome: "applied", status: "completed" };
