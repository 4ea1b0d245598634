/**
 * The one vocabulary of results. Every engine and gateway operation answers with an
 * Outcome: domain failures are values, exceptions are bugs.
 */

export const OUTCOME_KINDS = [
  "applied",
  "preview",
  "input_required",
  "rejected",
  "conflict",
  "not_found",
  "temporarily_unavailable",
  "unknown",
  // The call needs the person's own connection to the system (connect once, then retry).
  "connection_required",
  // The system refused the person's own token for this (their rights there).
  "forbidden",
] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

/** The public tools an agent may be pointed at. Internal handler names never appear here. */
export type ToolName =
  | "search_capabilities"
  | "start_action"
  | "get_context"
  | "advance_action"
  | "confirm_action"
  | "verify_action"
  | "recover_action"
  | "cancel_action";

export interface NextAction {
  tool: ToolName;
  args?: Record<string, unknown>;
  description: string;
  requires_user_approval?: boolean;
  /**
   * On a start: whether a person must approve the change, for this caller ("approval: the user",
   * "no approval: start_action runs it"), as the gateway will decide it.
   */
  approval?: string;
}

export interface ValidationError {
  field: string;
  code: string;
  message: string;
  /**
   * Nothing the agent could send makes this possible now (no after-sales path applies to the
   * order at all): the answer is then `rejected`, not `input_required`, so a person filtering for
   * refusals finds it.
   */
  refused?: boolean;
  /**
   * With a field the form or capability does not have: the one it most likely meant, by the
   * fields' names, spelling and descriptions (closest-field.ts). Named for the agent's next call;
   * never applied in its place.
   */
  closest?: string;
  /** Two or more fields equally close to the name sent: all named, none chosen for the agent. */
  closest_either?: string[];
  /**
   * What was asked for is already so (the order already goes there, the ticket is already
   * urgent): nothing would change. Not a wrong value: where the user asked for it, the action
   * ends instead of waiting for another value (see the engine's endsAtStart).
   */
  already?: boolean;
  /**
   * The value is one of the choices the node offers, and that choice's own row says it cannot be
   * taken now (sold out): the message names why and the choices that can be. Not a wrong value
   * but the user's choice, so a start given it ends at once (nothing held, the engine's
   * endsAtStart) for the user to choose again; an advance keeps its action open.
   */
  choice_closed?: boolean;
  /**
   * With a refusal: what is possible instead (track the parcel; return it once delivered).
   * They become the action's next_actions, so a flow that cannot go on ends with a way forward.
   */
  alternatives?: Alternative[];
}

/** Another capability that serves the user now, offered when this one cannot. */
export interface Alternative {
  capability: string;
  entity_id?: string;
  description: string;
}

/** Whether an evaluation stopped on refusals only (see `ValidationError.refused`). */
/** Where an action has ended: nothing in it can be chosen, advanced or confirmed any more. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set(["completed", "cancelled", "refused"]);

export function onlyRefusals(errors: readonly ValidationError[]): boolean {
  return errors.length > 0 && errors.every((e) => e.refused === true);
}

/** Fields every outcome carries. Operation-specific fields are added beside them. */
export interface OutcomeBase {
  outcome: OutcomeKind;
  message: string;
  retryable: boolean;
  /** Machine-readable reason for rejected / conflict / unavailable answers, e.g. `permission_required`. */
  reason?: string;
  action_id?: string;
  version?: number;
  next_actions: NextAction[];
}

export type Outcome<T extends object = Record<string, never>> = OutcomeBase & T;

/** Builds a refusal that carries the reason and the way forward. */
export function refusal(
  outcome: Exclude<OutcomeKind, "applied" | "preview">,
  reason: string,
  message: string,
  extra: Partial<OutcomeBase> & Record<string, unknown> = {},
): Outcome<Record<string, unknown>> {
  return {
    outcome,
    reason,
    message,
    retryable: outcome === "temporarily_unavailable" || outcome === "conflict",
    next_actions: [],
    ...extra,
  };
}
