import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import type { ActionResponse } from "./action-response";
import type { ActorScope } from "./action-store";
import { type AdvanceInput, advanceAction } from "./advance-action";
import { type ApprovalRunNote, noteApprovalRun } from "./approval-run";
import { type CancelWhen, cancelAction } from "./cancel-action";
import { type ConfirmInput, confirmAction } from "./confirm-action";
import type { EngineDeps } from "./engine-deps";
import { getActionContext } from "./get-action-context";
import { heldForWords } from "./held-for-words";
import { heldValuesInWords } from "./held-values-in-words";
import { holdForCheck } from "./hold-for-check";
import { recordInWords } from "./record-in-words";
import { recoverAction } from "./recover-action";
import { capabilityStartedWith } from "./replayed-start";
import { type StartInput, startAction } from "./start-action";
import { startsAllowed } from "./starts-allowed";
import { verifyAction } from "./verify-action";

/**
 * The capability runtime: start → advance* → (a person approves) → confirm → verify, and
 * recover for effects whose outcome is unknown, cancel for an action nobody wants any more. Every operation answers an ActionResponse;
 * each lives in its own file, named after it.
 */
export function createActionEngine(options: Omit<EngineDeps, "approvalUrl"> & Partial<EngineDeps>) {
  const deps: EngineDeps = { ...options, approvalUrl: options.approvalUrl ?? ((id) => `/confirm/${id}`) };
  return {
    /** Creates an action, applying the optional first patch in node order; never executes an effect. */
    start: (actor: Actor, input: StartInput): Promise<ActionResponse> => startAction(deps, actor, input),
    /** Which of these capabilities a start on this record would go on with (nothing is saved). */
    startsAllowed: (actor: Actor, capabilities: readonly AnyCapability[], recordId: string) =>
      startsAllowed(deps, actor, capabilities, recordId),
    /** The record a start of this capability would take from the words, if one (nothing is saved). */
    recordInWords: (actor: Actor, capability: AnyCapability, words: string, described?: boolean) =>
      recordInWords(deps, actor, capability, words, described),
    /** What the words name that the record holds now, for this capability's fields (nothing is saved). */
    heldValuesInWords: (actor: Actor, capability: AnyCapability, words: string, recordId?: string) =>
      heldValuesInWords(deps, actor, capability, words, recordId),
    /** The capability of the action the caller's idempotency key started, if any. */
    startedWith: (actor: Actor, idempotencyKey: string): Promise<string | null> =>
      capabilityStartedWith(deps, actor, idempotencyKey),
    /** Applies a patch to the current version (stale → conflict), re-runs the nodes, bumps the version. */
    advance: (actor: Actor, input: AdvanceInput): Promise<ActionResponse> =>
      advanceAction(deps, actor, input),
    /** Re-reads an action to resume it, with its inputs and the JSON Schema of the patch it accepts now. */
    getActionContext: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      getActionContext(deps, actor, actionId, scope),
    /** Executes the effect at most once, after a person approved this version and digest. */
    confirm: (actor: Actor, input: ConfirmInput): Promise<ActionResponse> =>
      confirmAction(deps, actor, input),
    /** Asks the system of record what really happened and records it. */
    verify: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      verifyAction(deps, actor, actionId, scope),
    /**
     * Ends an open action the user no longer wants; refused once its effect is claimed or done.
     * `when`: only in the one state it names (replaced while held for words; declined in a host).
     */
    cancel: (actor: Actor, actionId: string, when?: CancelWhen): Promise<ActionResponse> =>
      cancelAction(deps, actor, actionId, when),
    /** The caller's earlier actions held only for the user's words that this one takes the place of. */
    heldForWords: (actor: Actor, actionId: string): Promise<string[]> => heldForWords(deps, actor, actionId),
    /** Holds an open action for the agent's check: a later step completing it does not run it. */
    holdForCheck: (actor: Actor, actionId: string): Promise<void> => holdForCheck(deps, actor, actionId),
    /** Notes how a person's approval's own run of the confirm ended, when it did not carry it out. */
    noteApprovalRun: (actionId: string, version: number, note: ApprovalRunNote): Promise<void> =>
      noteApprovalRun(deps, actionId, version, note),
    /** Reconciles an unknown, failed or abandoned effect: verify first, then record, re-send with the same key, or queue. */
    recover: (actor: Actor, actionId: string, scope?: ActorScope): Promise<ActionResponse> =>
      recoverAction(deps, actor, actionId, scope),
  };
}

export type ActionEngine = ReturnType<typeof createActionEngine>;
