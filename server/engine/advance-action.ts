import type { Actor, Values } from "../connectors/sdk/define-capability";
import { onlyRefusals, type ValidationError } from "../connectors/sdk/outcome";
import { type ActionResponse, notAllowedNow, notFoundAction, respond, unavailable } from "./action-response";
import { parseActionState } from "./action-state";
import {
  loadAction,
  loadActionWithCapability,
  openApproval,
  recordActionEvent,
  toJson,
} from "./action-store";
import { allowedPatch, PATCHABLE, patchProblems, refusedPatchMessage, resentPatches } from "./allowed-patch";
import { answeredAsk } from "./answered-ask";
import { voidApprovals } from "./approval-ledger";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import { createdByAgent } from "./created-by-agent";
import { defaultsHold, withDefaulted } from "./defaulted-fields";
import type { EngineDeps } from "./engine-deps";
import { evaluateAction } from "./evaluate-action";
import { HELD_FOR_CHECK } from "./hold-for-check";
import { type ServerKeyAsk, sameAdvanceLately, serverAdvanceKey } from "./server-made-key";
import { stateTooLarge } from "./state-ceiling";
import { evaluationMessage, stateFromEvaluation, statusAfterEvaluation } from "./state-from-evaluation";
import { recordToAsk } from "./unnamed-record";

export interface AdvanceInput {
  action_id: string;
  version: number;
  /** Fields to set; `null` clears a field. */
  patch: Values;
  /** Given: the gateway confirms at once where nobody approves (see recordToAsk). */
  idempotency_key?: string;
  dry_run?: boolean;
  /** Without a key of the agent's: the server makes one where a key would run it (as start's). */
  serverKey?: ServerKeyAsk;
}

/**
 * Applies a patch to the current version (stale → conflict), re-runs the nodes, bumps the
 * version and voids approvals of older versions. `dry_run` previews without saving.
 */
export async function advanceAction(
  deps: EngineDeps,
  actor: Actor,
  input: AdvanceInput,
): Promise<ActionResponse> {
  const { db } = deps;
  const found = await loadActionWithCapability(deps, actor, input.action_id);
  if (!found) return notFoundAction(input.action_id);
  const { row, capability } = found;
  const serverKey =
    input.serverKey && !input.idempotency_key && !input.dry_run ? serverAdvanceKey(input) : null;
  // Resent after it ran the change (the action has moved on): the first outcome, not a refusal.
  const same = serverKey ? await sameAdvanceLately(deps, capability, row, serverKey) : null;
  if (same) return same;
  const allowed = allowedPatch(capability, row.entityId, row.status);
  if (!allowed.length) return notAllowedNow(deps, capability, row, "advance_action");
  if (input.version !== row.version)
    return respond(deps, capability, row, {
      outcome: "conflict",
      reason: "stale_version",
      message: `The action is at version ${row.version}, not ${input.version}; re-read it with get_context and resend`,
      retryable: true,
      next_actions: [
        {
          tool: "get_context",
          args: { action_id: row.id },
          description: "Re-read the action's current state",
        },
        {
          tool: "advance_action",
          args: { action_id: row.id, version: row.version },
          description: "Resend the patch against the current version",
        },
      ],
    });
  const problems = patchProblems(capability, input.patch, allowed);
  if (problems.length) {
    // The same advance with each field where it was meant (one per field where several are
    // close), first among the next steps; only a field nothing means is left out, said so.
    const resent = resentPatches(input.patch, problems).filter((p) => Object.keys(p.patch).length);
    const r = await respond(deps, capability, row, {
      outcome: "rejected",
      reason: "field_not_allowed",
      message: refusedPatchMessage(problems, allowed),
      retryable: false,
    });
    r.validation_errors = problems;
    const resend = resent.map(({ patch, resent }) => ({
      tool: "advance_action" as const,
      args: { action_id: row.id, version: row.version, patch },
      description: `The same advance ${resent}`,
    }));
    if (resend.length)
      r.next_actions = [...resend, ...(r.next_actions ?? []).filter((n) => n.tool !== "advance_action")];
    return r;
  }
  const previous = parseActionState(row.state);
  const values: Values = { ...previous.values };
  // A value the action defaulted is not the user's: filled again below, and still marked so.
  for (const f of previous.defaulted ?? []) if (!(f in input.patch)) delete values[f];
  // So is a reason taken from the request: filled from it again, and marked again.
  for (const f of previous.from_request ?? []) if (!(f in input.patch)) delete values[f];
  for (const [k, v] of Object.entries(input.patch)) {
    if (v === null) delete values[k];
    else values[k] = v;
  }
  const adapter = await deps.adapterFor(capability.connector, actor);
  const ev = await catchSystemUnavailable(() =>
    evaluateAction(capability, adapter, actor, values, { request: previous.request }, (entity, ids) =>
      createdByAgent(deps.db, deps.capabilities, actor, entity, ids),
    ),
  );
  if ("unavailable" in ev) return unavailable(ev.unavailable, { action_id: row.id, version: row.version });
  // The entity named in the patch does not exist (or is not the actor's): the action stays as it was.
  if (ev.notFound)
    return respond(deps, capability, row, {
      outcome: "not_found",
      reason: "entity_not_found",
      message: `${ev.notFound.entity} ${ev.notFound.id} not found; the action is unchanged`,
      retryable: false,
    });
  const state = stateFromEvaluation(capability, ev, Object.keys(input.patch), previous);
  const fromWords = {
    ...(Object.keys(ev.fromWords).length ? { from_words: ev.fromWords } : {}),
    ...(Object.keys(ev.whyPicked).length ? { why_picked: ev.whyPicked } : {}),
    ...withDefaulted(ev),
  };
  // What the words named stays named, unless this patch set the field again by id.
  const named = { ...previous.from_words };
  for (const field of Object.keys(input.patch)) delete named[field];
  Object.assign(named, ev.fromWords);
  state.from_words = Object.keys(named).length ? named : undefined;
  // Held for the agent's check, it stays held: its confirm_action is what runs it.
  if (previous.held_for_check) state.held_for_check = true;
  let status = statusAfterEvaluation(capability, ev, state);
  let readError: ValidationError | undefined;
  // A read capability that got its last input answers now, as start_action does.
  if (status === "completed" && capability.read && !input.dry_run) {
    const read = capability.read;
    const answer = await catchSystemUnavailable(() =>
      read({ adapter, actor, values: ev.values, derived: ev.derived }),
    );
    if ("unavailable" in answer)
      return unavailable(answer.unavailable, { action_id: row.id, version: row.version });
    if ("result" in answer) state.result = answer.result;
    // The record the patch named cannot be read ("not shipped yet"): the action stays open, as
    // after any refusal an advance meets, for another record the user may name.
    if ("error" in answer) {
      state.validation_errors = [answer.error];
      status = "open";
      readError = answer.error;
    }
  }
  let message = readError ? readError.message : evaluationMessage(capability, ev, state);
  const refused = onlyRefusals(ev.errors) || !!readError;
  const ready = ev.atConfirmation && !state.requires_approval && !refused && !input.dry_run;
  const askUser =
    (input.idempotency_key || serverKey) && ready
      ? // The user's words the action started with still name its record: without them, a record
        // the agent sent beside those words read as its own pick on every later step.
        (
          await recordToAsk(capability, adapter, actor, ev.values, {
            request: previous.request,
            fromWords: { ...named, ...answeredAsk(capability.appliesTo.field, input.patch, previous) },
          })
        ).ask
      : null;
  const outcome = refused ? "rejected" : ev.errors.length || ev.missing.length ? "input_required" : "applied";
  // Where a key of the agent's would run it, and this caller's confirm is let through: the
  // gateway confirms under the server's key (start-action's rule).
  const ranNow =
    serverKey &&
    ready &&
    outcome === "applied" &&
    !askUser &&
    !state.held_for_check &&
    (await input.serverKey?.confirmAllowed(capability));
  if (ready && outcome === "applied" && state.held_for_check) message = `${message}${HELD_FOR_CHECK}`;
  // A default the user did not choose keeps it for the agent to ask about (defaultsHold).
  const heldByDefaults = ranNow ? defaultsHold(ev) : null;
  if (heldByDefaults) message = `${message}${heldByDefaults}`;
  const onServerKey = ranNow && !heldByDefaults && serverKey ? { server_key: serverKey.confirmKey } : {};
  // Refused whole, before anything is written: the action stays at its version and state.
  const tooLarge = stateTooLarge(state, input.patch);
  if (tooLarge) {
    const r = await respond(deps, capability, row, {
      outcome: "rejected",
      reason: "state_too_large",
      message: tooLarge.message,
      retryable: false,
    });
    r.validation_errors = [tooLarge];
    return r;
  }
  if (input.dry_run)
    return respond(
      deps,
      capability,
      { ...row, node: ev.node, status, state: state as never },
      {
        outcome: "preview",
        message: `Preview only, nothing was saved: ${message}`,
        retryable: false,
        ...fromWords,
      },
      { options: { since: previous.options } },
    );
  // An empty patch that changes nothing must not void an approval.
  if (!Object.keys(input.patch).length && state.digest === previous.digest && ev.node === row.node)
    return respond(deps, capability, row, {
      outcome,
      ...(refused ? { reason: (readError ?? ev.errors[0])?.code } : {}),
      message,
      retryable: false,
      ...onServerKey,
    });
  // Conditional on the version, on a status that takes patches, and on no claimed effect: a
  // confirm that already claimed the effect (it is re-checking or sending) must not have the
  // action changed, and its approval voided, under it.
  const updated = await db.action.updateMany({
    where: {
      id: row.id,
      version: row.version,
      status: { in: PATCHABLE },
      OR: [{ effect: { is: null } }, { effect: { is: { status: "failed" } } }],
    },
    data: { version: row.version + 1, node: ev.node, status, state: toJson(state) },
  });
  if (updated.count === 0) {
    const fresh = (await loadAction(db, actor, row.id)) ?? row;
    const claimed = await db.effect.findUnique({ where: { actionId: row.id } });
    if (claimed && claimed.status !== "failed")
      return respond(deps, capability, fresh, {
        outcome: "conflict",
        reason: "confirm_in_progress",
        message: "The action is being confirmed (its effect is claimed); it can no longer change",
        retryable: false,
      });
    return respond(deps, capability, fresh, {
      outcome: "conflict",
      reason: "stale_version",
      message: `The action changed meanwhile; it is at version ${fresh.version}`,
      retryable: true,
    });
  }
  const next = { ...row, version: row.version + 1, node: ev.node, status, state: state as never };
  await voidApprovals(db, row.id, next.version);
  await recordActionEvent(db, {
    actionId: row.id,
    version: next.version,
    kind: "advanced",
    node: ev.node,
    data: {
      patch: Object.keys(input.patch),
      applied: state.applied,
      pending: state.pending,
      validation_errors: state.validation_errors,
    },
  });
  if (ev.atConfirmation && state.requires_approval)
    await openApproval(db, next, state, capability.policy.approvalTtlMs);
  return respond(
    deps,
    capability,
    next,
    {
      outcome,
      ...(refused ? { reason: (readError ?? ev.errors[0])?.code } : {}),
      message,
      retryable: false,
      ...fromWords,
      ...(askUser ? { ask_user: askUser } : {}),
      ...onServerKey,
    },
    { options: { since: previous.options } },
  );
}
