import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import {
  type ActionResponse,
  approvalView,
  notAllowedNow,
  notFoundAction,
  respond,
  unavailable,
} from "./action-response";
import { type ActionState, parseActionState } from "./action-state";
import {
  type ActionRow,
  type EffectRow,
  loadActionWithCapability,
  openApproval,
  recordActionEvent,
  toJson,
} from "./action-store";
import { effectiveApprovalStatus, findApproval, markApprovalExpired, voidApprovals } from "./approval-ledger";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import { markedSummary } from "./defaulted-fields";
import {
  actionKeyFor,
  executeEffect,
  existingEffectOutcome,
  firstIdempotencyKey,
  isUniqueViolation,
  leaseUntil,
  releaseClaim,
} from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";
import { type Evaluation, evaluateAction } from "./evaluate-action";
import { stateFromEvaluation, statusAfterEvaluation } from "./state-from-evaluation";
import { summaryDigest } from "./summary-digest";
import { verifyAtOnce } from "./verify-action";

export interface ConfirmInput {
  action_id: string;
  /** The version the agent saw; an approval is bound to it. */
  version?: number;
  idempotency_key: string;
  dry_run?: boolean;
}

/**
 * Executes the effect once: needs the person's approval of this version and digest; claims the
 * ledger row first; replays the first outcome to every later confirm. Prices, stock and states
 * are re-checked at execution time: what no longer matches the approval is a `conflict` and a
 * new version to approve.
 */
export async function confirmAction(
  deps: EngineDeps,
  actor: Actor,
  input: ConfirmInput,
): Promise<ActionResponse> {
  const { db } = deps;
  const found = await loadActionWithCapability(deps, actor, input.action_id);
  if (!found) return notFoundAction(input.action_id);
  const { row, capability } = found;
  if (!capability.effect) return notAllowedNow(deps, capability, row, "confirm_action");
  const waitMs = capability.policy.timeoutMs * Math.max(1, capability.policy.retry.attempts) + 2000;
  const replay = () => existingEffectOutcome(deps, capability, actor, row.id, input.idempotency_key, waitMs);
  const existing = await db.effect.findUnique({ where: { actionId: row.id } });
  // An effect applied but not verified yet (the person's approval sent it a moment ago, or a
  // first confirm's check failed): asked once more, as the first confirm does.
  if (existing && existing.status !== "failed") {
    const answer = await replay();
    const checked = await verifyAtOnce(deps, capability, actor, row.id, answer);
    // Unchanged and still "applied": the sender's own check may have verified it meanwhile
    // (verifyAtOnce found it no longer `applied`); answer as the action stands now.
    return checked === answer && answer.status === "applied" ? replay() : checked;
  }
  const state = parseActionState(row.state);
  const atConfirmation = capability.nodes.some((n) => n.id === row.node && n.requiresConfirmation);
  // A person's rejection is answered as such (with their reason), not as "not possible now".
  const rejectedByPerson = row.status === "rejected" && state.requires_approval && atConfirmation;
  if (
    !existing &&
    !rejectedByPerson &&
    (!atConfirmation || !state.summary || !["open", "awaiting_approval", "approved"].includes(row.status))
  )
    return notAllowedNow(deps, capability, row, "confirm_action");
  if (input.version !== undefined && input.version !== row.version)
    return respond(deps, capability, row, {
      outcome: "conflict",
      reason: "stale_version",
      message: `The action is at version ${row.version}, not ${input.version}; the approval is bound to the current version`,
      retryable: true,
    });
  if (state.requires_approval) {
    const refused = await approvalRefusal(deps, capability, row, state);
    if (refused) return refused;
  }
  if (input.dry_run)
    return respond(deps, capability, row, {
      outcome: "preview",
      message: `Preview only: confirming would ${capability.effect.description.toLowerCase()} as summarized; nothing was sent`,
      retryable: false,
    });

  // The connector before the claim: a disabled connector or a missing key must not leave a
  // claimed `pending` effect behind that would block every later confirm until its lease ran out.
  const connected = await catchSystemUnavailable(async () => ({
    adapter: await deps.adapterFor(capability.connector, actor),
  }));
  if ("unavailable" in connected)
    return unavailable(connected.unavailable, { action_id: row.id, version: row.version });
  const { adapter } = connected;

  // Claim the effect: the unique (actionId) and (actionKey) constraints let exactly one confirm through.
  const request = {
    idempotency_key: input.idempotency_key,
    version: row.version,
    digest: state.digest,
    lease_until: leaseUntil(capability),
  };
  let effect: EffectRow;
  if (existing) {
    // A retry after "temporarily unavailable": same key; the conditional update admits one retrier.
    const claimed = await db.effect.updateMany({
      where: { id: existing.id, status: "failed" },
      data: {
        status: "pending",
        attempts: { increment: 1 },
        request: toJson({
          ...request,
          idempotency_key: firstIdempotencyKey(existing) ?? input.idempotency_key,
        }),
      },
    });
    if (claimed.count === 0) return replay();
    effect = await db.effect.findUniqueOrThrow({ where: { id: existing.id } });
  } else {
    try {
      effect = await db.effect.create({
        data: {
          actionId: row.id,
          actionKey: actionKeyFor(row),
          tenantId: row.tenantId,
          kind: capability.effect.kind,
          status: "pending",
          request: toJson(request),
          attempts: 1,
        },
      });
    } catch (err) {
      if (isUniqueViolation(err)) return replay();
      throw err;
    }
  }
  // Re-validate at execution time: prices, stock and states may have moved since approval. Any
  // throw here (the person's connection refused, a bug) comes before anything is sent: the claim
  // is given back first, or every later confirm would find it pending and answer "unknown".
  let ev: Awaited<ReturnType<typeof evaluateAction>> | { unavailable: string };
  try {
    ev = await catchSystemUnavailable(() => evaluateAction(capability, adapter, actor, state.values));
  } catch (err) {
    await releaseClaim(db, effect, !existing);
    throw err;
  }
  if (
    "unavailable" in ev ||
    ev.notFound ||
    !ev.atConfirmation ||
    // The stored summary marks the defaults the action chose: the same marks, the same digest.
    summaryDigest(
      markedSummary(capability.summarize?.({ values: ev.values, derived: ev.derived }) ?? {}, {
        defaulted: state.defaulted,
        fromRequest: state.from_request,
      }),
    ) !== state.digest
  ) {
    // Release the claim: nothing was sent.
    await releaseClaim(db, effect, !existing);
    if ("unavailable" in ev) return unavailable(ev.unavailable, { action_id: row.id, version: row.version });
    return changedSinceApproval(deps, capability, row, state, ev);
  }
  // Conditional on the version confirmed: an advance that won the race moved the action on, and
  // what was approved is no longer what the action says — give the claim back, send nothing.
  const executing = await db.action.updateMany({
    where: { id: row.id, version: row.version },
    data: { status: "executing" },
  });
  if (executing.count === 0) {
    await releaseClaim(db, effect, !existing);
    const current = await db.action.findUniqueOrThrow({ where: { id: row.id } });
    return respond(deps, capability, current, {
      outcome: "conflict",
      reason: "stale_version",
      message: `The action changed while it was being confirmed (now version ${current.version}); nothing was sent`,
      retryable: true,
    });
  }
  // executeEffect resolves the connector again (it may have been disabled since the check above);
  // it gives this claim back itself if it cannot, so it needs to know how the claim was taken.
  const claim = existing ? { fresh: false as const } : { fresh: true as const, statusBefore: row.status };
  const answer = await executeEffect(
    deps,
    capability,
    actor,
    { ...row, status: "executing" },
    effect,
    "confirmed",
    claim,
  );
  return verifyAtOnce(deps, capability, actor, row.id, answer);
}

/** The refusal when this version and digest lack a person's valid approval; null when approved. */
async function approvalRefusal(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  state: ActionState,
): Promise<ActionResponse | null> {
  const approval = await findApproval(deps.db, row.id, row.version);
  const status = approval ? effectiveApprovalStatus(approval) : "pending";
  if (approval && status === "approved" && approval.summaryDigest === state.digest) return null;
  if (approval && status === "rejected") {
    const view = await approvalView(deps, row.id, approval);
    const who = view.decided_by ? view.decided_by.name : "The user";
    // next_actions come from the one place that knows the flow (advance, or nothing: stop).
    return respond(deps, capability, row, {
      outcome: "rejected",
      reason: "approval_rejected",
      message: `${who} rejected this${view.reason ? `: "${view.reason}"` : " (no reason given)"}; change what they objected to (that asks them again) or stop`,
      retryable: false,
    });
  }
  if (approval && status === "expired") return askAgain(deps, capability, row, state, approval.id);
  return respond(deps, capability, row, {
    outcome: "rejected",
    reason: "approval_pending",
    // The link is on the approval line of the answer; the summary stays as the person sees it.
    message: `Not approved yet: a person must approve version ${row.version} first; the model's word is not an approval`,
    retryable: true,
    next_actions: [
      {
        tool: "get_context",
        args: { action_id: row.id },
        description: "After the user approved: the result (their approval carried it out)",
      },
      {
        tool: "confirm_action",
        args: { action_id: row.id, version: row.version },
        description: "Not needed after the approval (it carries it out); returns the same result",
        requires_user_approval: true,
      },
    ],
  });
}

/**
 * The approval ran out before it was used: it is void, and the same summary goes to the person
 * again as a new version with a fresh approval request (nothing is sent until they approve).
 */
async function askAgain(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  state: ActionState,
  approvalId: string,
): Promise<ActionResponse> {
  const { db } = deps;
  await markApprovalExpired(db, approvalId);
  const next = { ...row, version: row.version + 1, status: "awaiting_approval" };
  const updated = await db.action.updateMany({
    where: { id: row.id, version: row.version },
    data: { version: next.version, status: next.status },
  });
  if (!updated.count) {
    const current = await db.action.findUniqueOrThrow({ where: { id: row.id } });
    return respond(deps, capability, current, {
      outcome: "conflict",
      reason: "stale_version",
      message: `The action changed meanwhile (now version ${current.version}); read it again`,
      retryable: true,
    });
  }
  await recordActionEvent(db, {
    actionId: row.id,
    version: next.version,
    kind: "approval_expired",
    node: row.node,
    data: { expired_version: row.version },
  });
  await openApproval(db, next, state, capability.policy.approvalTtlMs);
  return respond(deps, capability, next, {
    outcome: "rejected",
    reason: "approval_expired",
    message: `Nobody approved version ${row.version} in time, so that request expired; the user was asked again (version ${next.version}) at ${deps.approvalUrl(row.id)}`,
    retryable: true,
  });
}

/**
 * Something changed under the approval (or the entity is gone): records the new state as a new
 * version, which needs a new approval, and answers `conflict`.
 */
async function changedSinceApproval(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  state: ActionState,
  ev: Evaluation,
): Promise<ActionResponse> {
  const { db } = deps;
  const fresh = ev.notFound ? state : stateFromEvaluation(capability, ev, [], state);
  const status = ev.notFound ? "cancelled" : statusAfterEvaluation(capability, ev, fresh);
  const next = {
    ...row,
    version: row.version + 1,
    node: ev.notFound ? row.node : ev.node,
    status,
    state: fresh as never,
  };
  const updated = await db.action.updateMany({
    where: { id: row.id, version: row.version },
    data: { version: next.version, node: next.node, status, state: toJson(fresh) },
  });
  if (updated.count) {
    await voidApprovals(db, row.id, next.version);
    await recordActionEvent(db, {
      actionId: row.id,
      version: next.version,
      kind: "changed_before_confirm",
      node: next.node,
      data: { validation_errors: fresh.validation_errors },
    });
    if (!ev.notFound && ev.atConfirmation && fresh.requires_approval)
      await openApproval(db, next, fresh, capability.policy.approvalTtlMs);
  }
  return respond(deps, capability, next, {
    outcome: "conflict",
    reason: "changed_since_approval",
    message:
      "What was approved no longer matches the system of record; review the new summary (a new approval is needed)",
    retryable: true,
  });
}
