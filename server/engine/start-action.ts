import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import { type ActionResponse, respond, unavailable } from "./action-response";
import { emptyActionState } from "./action-state";
import { type ActionRow, openApproval, recordActionEvent, toJson } from "./action-store";
import { allowedPatch, patchProblems } from "./allowed-patch";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import { createdByAgent } from "./created-by-agent";
import { defaultsHold, withDefaulted } from "./defaulted-fields";
import { describeInputs } from "./describe-inputs";
import { isUniqueViolation } from "./effect-ledger";
import { alreadySo, endsAtStart } from "./ends-at-start";
import type { EngineDeps } from "./engine-deps";
import { evaluateAction } from "./evaluate-action";
import { namedEarlier } from "./named-earlier";
import { anotherChoiceStart } from "./next-actions-for";
import { noneCanTake } from "./none-can-take";
import { withOptInChoices, withPaidChoices } from "./paid-choices";
import { onlyAsksToKnow, onlyAsksWhat } from "./query-clauses";
import { renamedFields } from "./renamed-fields";
import { replayedStart, requestFingerprint, startKeyPrefix } from "./replayed-start";
import { type ServerKeyAsk, sameStartLately, serverStartKey } from "./server-made-key";
import { startPatchRejected } from "./start-patch-rejected";
import { stateTooLarge } from "./state-ceiling";
import { evaluationMessage, stateFromEvaluation, statusAfterEvaluation } from "./state-from-evaluation";
import { questionOnly, recordToAsk } from "./unnamed-record";
import { fieldWords } from "./words-that-set";

/** What a refused start says of itself: the action it made is over, so nothing waits on it. */
const ENDED = "this action ended: nothing is held or left open, nothing to cancel";

export interface StartInput {
  capability: string;
  entity_id?: string;
  patch?: Values;
  /**
   * The user's request in their words, beside a capability named or found by them: a field the
   * patch leaves out is taken from it where the words name exactly one of the node's choices.
   */
  intent?: string;
  /** Given (to confirm at once): a start resent with the same key answers with the first action. */
  idempotency_key?: string;
  dry_run?: boolean;
  /**
   * Without a key of the agent's: a start that would run at once with one keeps a key the server
   * makes (server-made-key.ts), so its resend within the window is this action. The gateway's
   * alone: no tool's schema takes it.
   */
  serverKey?: ServerKeyAsk;
}

/**
 * Creates an action, applies the optional first patch in node order, and stops at the first node
 * lacking input, failing validation, or at the confirmation node. Never executes an effect.
 * A read capability whose nodes all pass answers at once (`result`). `dry_run` saves nothing.
 */
export async function startAction(
  deps: EngineDeps,
  actor: Actor,
  input: StartInput,
): Promise<ActionResponse> {
  const keyPrefix =
    input.idempotency_key && !input.dry_run ? startKeyPrefix(actor, input.idempotency_key) : null;
  // The key with what was asked: a resend matches it whole, another ask under the key does not.
  const startKey = keyPrefix ? `${keyPrefix}${requestFingerprint(input)}` : null;
  if (keyPrefix && startKey) {
    const earlier = await replayedStart(deps, actor, keyPrefix, startKey);
    if (earlier) return earlier;
  }
  const serverKey =
    input.serverKey && !input.idempotency_key && !input.dry_run ? serverStartKey(actor, input) : null;
  if (serverKey) {
    const earlier = await sameStartLately(deps, actor, serverKey);
    if (earlier) return earlier;
  }
  const capability = deps.capabilities.get(input.capability);
  if (!capability)
    return {
      outcome: "not_found",
      reason: "unknown_capability",
      message: `No capability ${input.capability}`,
      retryable: false,
      next_actions: [
        { tool: "search_capabilities", description: "Find the capability for the user's intent" },
      ],
    };
  // Words that only ask what there is to know ("what's the cheapest shipping for my cart?") are
  // answered as a preview of a change: nothing is started, so nothing is left open to cancel (set
  // AS: a checkout opened by the question was advanced to read its prices, then cancelled).
  const question =
    !capability.read &&
    !input.dry_run &&
    !Object.keys(input.patch ?? {}).length &&
    !!input.intent &&
    onlyAsksWhat(input.intent.toLowerCase());
  if (question) input = { ...input, dry_run: true };
  const patch: Values = { ...(input.patch ?? {}) };
  const allowed = allowedPatch(capability, null);
  const problems = patchProblems(capability, patch, allowed);
  const renamed = problems.length ? renamedFields(capability, patch, problems) : null;
  if (problems.length && !renamed) return startPatchRejected(capability, input, allowed, problems);
  for (const [field, sent] of Object.entries(renamed ?? {})) {
    patch[field] = patch[sent];
    delete patch[sent];
  }
  Object.assign(patch, settledStartPatch(capability, input));
  const adapter = await deps.adapterFor(capability.connector, actor);
  const evaluate = (values: Values) =>
    catchSystemUnavailable(() =>
      evaluateAction(
        capability,
        adapter,
        actor,
        values,
        { request: input.intent, atStart: true },
        (entity, ids) => createdByAgent(deps.db, deps.capabilities, actor, entity, ids),
      ),
    );
  let ev = await evaluate(patch);
  if ("unavailable" in ev) return unavailable(ev.unavailable, { capability: capability.id });
  // Not one record offered can take the change: the start ends here, saying why (none-can-take.ts).
  const none = noneCanTake(capability, ev, input.intent ?? "");
  const recordField = capability.appliesTo.field;
  if (none && "refused" in none) ev.errors = [none.refused];
  if (none && "only" in none && recordField) {
    // The one record offered is judged by its own checks, which name what it can take instead.
    const own = await evaluate({ ...patch, [recordField]: none.only });
    if ("unavailable" in own) return unavailable(own.unavailable, { capability: capability.id });
    if (own.errors.some((e) => e.field === recordField)) {
      own.fromWords = {
        ...ev.fromWords,
        [recordField]: `${none.only} (the only ${capability.appliesTo.entity.toLowerCase()} offered)`,
      };
      ev = own;
    }
  }
  if (ev.notFound)
    return {
      outcome: "not_found",
      reason: "entity_not_found",
      message: `${ev.notFound.entity} ${ev.notFound.id} not found`,
      retryable: false,
      capability: capability.id,
      // Not a dead end: without the id, the first step offers the user's own records.
      next_actions: capability.appliesTo.field
        ? [
            {
              tool: "start_action",
              args: { capability: capability.id },
              description: `Start without the id: the first step lists the user's ${capability.appliesTo.entity.toLowerCase()}s to pick from`,
            },
          ]
        : [],
    };
  // Fields taken from the user's words count as sent: applied where their node passed.
  const sentFields = [...new Set([...Object.keys(patch), ...Object.keys(ev.fromWords)])];
  const state = stateFromEvaluation(capability, ev, sentFields, emptyActionState());
  // The record the user's words quote by its id ("ticket tkt_9") is as named as one they describe.
  const named = { ...ev.fromWords, ...quotedRecord(capability, ev.values, input.intent) };
  if (Object.keys(named).length) state.from_words = named;
  // Kept (bounded) for the steps after this one: "ship to the office" waits for the ADDRESS node.
  const request = input.intent?.trim().slice(0, 1000);
  if (request) state.request = request;
  let status = statusAfterEvaluation(capability, ev, state);
  let readRefused = false;
  if (status === "completed" && capability.read) {
    const read = capability.read;
    const answer = await catchSystemUnavailable(() =>
      read({ adapter, actor, values: ev.values, derived: ev.derived }),
    );
    if ("unavailable" in answer) return unavailable(answer.unavailable, { capability: capability.id });
    if ("result" in answer) state.result = answer.result;
    if ("error" in answer) {
      state.validation_errors = [answer.error];
      readRefused = true;
    }
  }
  // Nothing the agent could send carries out what the start asked (refused, its record cannot
  // take the change, or it is already so: endsAtStart), or the read was refused: the action ends
  // here, holding nothing, so the agent owes no cancel_action to clean it up.
  const ends = endsAtStart(capability, ev.errors, [...sentFields, ...Object.keys(named)]);
  const refused = ends || readRefused;
  if (refused) {
    status = "refused";
    // Nothing more is asked for or kept for later steps: the action does not go on (its text
    // then lists no choices either: nothing on it is to be fixed).
    state.missing = [];
    state.pending = [];
  }
  const entityId = capability.appliesTo.field
    ? ((ev.values[capability.appliesTo.field] as string | undefined) ?? null)
    : null;
  // Checked before anything is saved (or previewed): an action never holds megabytes of input.
  const tooLarge = stateTooLarge(state, patch);
  if (tooLarge)
    return {
      outcome: "rejected",
      reason: "state_too_large",
      message: tooLarge.message,
      retryable: false,
      capability: capability.id,
      validation_errors: [tooLarge],
      next_actions: [
        {
          tool: "start_action",
          args: { capability: capability.id },
          description: `Start again with a smaller ${tooLarge.field}`,
        },
      ],
    };
  // A preview of something nothing can make possible now: only why, and what is possible instead
  // (no "missing", no "fix", no "start it for real").
  if (input.dry_run && ends)
    return {
      outcome: "preview",
      message: `Preview only, nothing was saved: ${ev.errors.map((e) => e.message).join("; ")}`,
      retryable: false,
      capability: capability.id,
      validation_errors: ev.errors,
      next_actions: [
        ...ev.errors.flatMap((e) =>
          (e.alternatives ?? []).map((a) => ({
            tool: "start_action" as const,
            args: { capability: a.capability, ...(a.entity_id ? { entity_id: a.entity_id } : {}) },
            description: a.description,
          })),
        ),
        ...anotherChoiceStart(capability, ev.errors, ev.values),
      ],
    };
  if (input.dry_run)
    return {
      outcome: "preview",
      // A read the dry run made and the system refused ("has not shipped yet") is the answer, not "done".
      message: `Preview only, nothing was saved${question ? " (the words ask a question, not for a change)" : ""}: ${
        status === "refused" && state.validation_errors.length
          ? state.validation_errors.map((e) => e.message).join("; ")
          : evaluationMessage(capability, ev, state)
      }`,
      retryable: false,
      capability: capability.id,
      entity: { type: capability.appliesTo.entity, id: entityId },
      node: ev.node,
      inputs: describeInputs(capability),
      options: state.options,
      applied: state.applied,
      missing: state.missing,
      pending: state.pending,
      allowed_patch: allowedPatch(capability, entityId),
      validation_errors: state.validation_errors,
      requires_confirmation: ev.atConfirmation,
      // Whether a person must approve it as it stands: a start made for another ask is tried only
      // where nobody must (gateway other-asks-run.ts), never opening an approval it then voids.
      requires_approval: state.requires_approval,
      summary: state.summary,
      result: state.result,
      ...(Object.keys(ev.fromWords).length ? { from_words: ev.fromWords } : {}),
      ...(Object.keys(ev.whyPicked).length ? { why_picked: ev.whyPicked } : {}),
      ...withDefaulted(ev),
      // Set BQ: without them a preview said "…, paid from my balance" as an after-sales ask
      // beside the checkout those words pay (a real start reads them as its fields).
      ...fieldWords(capability, ev, input.intent),
      // The question a real start would ask, priced as money the same way.
      ...withPaidChoices(capability, state.missing, state.options),
      ...withOptInChoices(capability, state.values, state.options),
      ...(capability.money ? { money_of: capability.money } : {}),
      next_actions: [
        {
          tool: "start_action",
          args: { capability: capability.id },
          description: question
            ? "Start it for real only when the user asks for the change"
            : "Start it for real (without dry_run)",
        },
      ],
    };
  // With a key a change nobody approves runs at once: only on a record the user meant.
  const keyed = !!input.idempotency_key || !!serverKey;
  const ready = ev.atConfirmation && !state.requires_approval && !refused;
  const check =
    keyed && ready
      ? await recordToAsk(capability, adapter, actor, ev.values, {
          request: input.intent,
          fromWords: named,
          namedBefore: (record, wordless) =>
            namedEarlier(deps, actor, record, wordless ? capability.id : undefined),
        })
      : { ask: null };
  // Words that only ask to know ("Is the headphones ticket assigned to Sara?") ask for no change:
  // it waits for the user's word (review 51: the question reassigned the ticket at once).
  const record = recordField ? ev.values[recordField] : undefined;
  const askUser =
    check.ask ??
    (keyed &&
    ready &&
    recordField &&
    typeof record === "string" &&
    onlyAsksToKnow(input.intent?.toLowerCase() ?? "")
      ? questionOnly(recordField, record)
      : null);
  // Held for the user's word on its record: a start of the same change that follows replaces it.
  if (askUser) state.held_for_words = true;
  // A record sent by id that the words name too is kept as named by them (RecordCheck.named).
  if (check.named && recordField) state.from_words = { ...state.from_words, [recordField]: check.named };
  // Exactly where a key of the agent's would run it, and where this caller's confirm is let through.
  const ranNow =
    !!serverKey &&
    ready &&
    !ev.errors.length &&
    !ev.missing.length &&
    !askUser &&
    !!(await input.serverKey?.confirmAllowed(capability));
  // A default the user did not choose keeps it for the agent to ask about (defaultsHold).
  const heldByDefaults = ranNow ? defaultsHold(ev) : null;
  const runsOnServerKey = ranNow && !heldByDefaults;
  let row: ActionRow;
  try {
    row = await deps.db.action.create({
      data: {
        tenantId: actor.tenantId,
        agentId: actor.agentId ?? null,
        userId: actor.userId,
        capability: capability.id,
        entityType: capability.appliesTo.entity,
        entityId,
        node: ev.node,
        version: 1,
        status,
        state: toJson(state),
        startKey: startKey ?? (runsOnServerKey ? serverKey?.startKey : null),
      },
    });
  } catch (err) {
    // The same start sent twice at once: the first one's action is the answer to both.
    const earlier = !isUniqueViolation(err)
      ? null
      : keyPrefix && startKey
        ? await replayedStart(deps, actor, keyPrefix, startKey)
        : runsOnServerKey && serverKey
          ? await sameStartLately(deps, actor, serverKey)
          : null;
    if (earlier) return earlier;
    throw err;
  }
  await recordActionEvent(deps.db, {
    actionId: row.id,
    version: 1,
    kind: "started",
    node: ev.node,
    data: { applied: state.applied, missing: state.missing, validation_errors: state.validation_errors },
  });
  if (ev.atConfirmation && state.requires_approval && state.summary && state.digest)
    await openApproval(deps.db, row, state, capability.policy.approvalTtlMs);
  return respond(
    deps,
    capability,
    row,
    {
      outcome: refused ? "rejected" : ev.errors.length || ev.missing.length ? "input_required" : "applied",
      reason: refused ? state.validation_errors[0]?.code : undefined,
      message: refused
        ? `${state.validation_errors[0]?.message ?? "Refused"}${alreadySo(ev.errors) ? ": nothing to change" : ""} (${ENDED})`
        : `${evaluationMessage(capability, ev, state)}${heldByDefaults ?? ""}`,
      retryable: false,
      ...(Object.keys(ev.fromWords).length ? { from_words: ev.fromWords } : {}),
      ...(Object.keys(ev.whyPicked).length ? { why_picked: ev.whyPicked } : {}),
      ...withDefaulted(ev),
      ...(askUser ? { ask_user: askUser } : {}),
      ...fieldWords(capability, ev, input.intent),
      ...(renamed ? { renamed } : {}),
      // The gateway confirms under it (and strips it): the change runs in this same call.
      ...(runsOnServerKey && serverKey ? { server_key: serverKey.confirmKey } : {}),
    },
    { withInputs: true, options: "full" },
  );
}

/**
 * The inputs a start really runs with: the patch, with `entity_id` in the field the capability
 * applies to (it wins over the patch's own value). The gateway authorizes this very patch, so
 * what is granted is what runs.
 */
export function settledStartPatch(
  capability: Pick<AnyCapability, "appliesTo">,
  input: { patch?: Values; entity_id?: string },
): Values {
  const patch: Values = { ...(input.patch ?? {}) };
  if (input.entity_id && capability.appliesTo.field) patch[capability.appliesTo.field] = input.entity_id;
  return patch;
}

/** The record field, when the user's words quote its value whole (any case): field → value. */
function quotedRecord(capability: AnyCapability, values: Values, intent?: string): Record<string, string> {
  const field = capability.appliesTo.field;
  const value = field ? values[field] : undefined;
  if (!field || typeof value !== "string" || !intent) return {};
  const escaped = value.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
  return new RegExp(`(^|[^\\w])${escaped}($|[^\\w])`, "i").test(intent) ? { [field]: value } : {};
}
