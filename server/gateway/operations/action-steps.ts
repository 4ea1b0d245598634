import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { TrustedContext } from "../trusted-context";
import type { HeldValuesNamed } from "./held-values-named";
import type { PossibleOn } from "./pick-by-record";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;
/** A step that may keep a key of the server's (server-made-key.ts), made for `request` where the start reads one ask. */
type KeyedOperation = (
  ctx: TrustedContext | null,
  raw: unknown,
  options?: { serverKey?: boolean; request?: string },
) => Promise<Outcome>;

/** The single-step operations start_action and advance_action compose (compose-action-steps.ts). */
export interface ActionSteps {
  searchCapabilities: Operation;
  startAction: KeyedOperation;
  advanceAction: KeyedOperation;
  confirmAction: Operation;
  /** confirm_action under a key the server made: its own permission check and audit row. */
  confirmWithServerKey: Operation;
  /** cancel_action: a start made for another ask that did not run at once (other-asks-run.ts). */
  cancelAction: Operation;
  /** The capability of the action the caller's key started, if any. */
  startedWith: (ctx: TrustedContext, idempotencyKey: string) => Promise<string | null>;
  /** What the caller may start on the record given or quoted now (possible-on-record.ts). */
  possibleOn: PossibleOn;
  /** What the words name that a record holds now, per capability (held-values-named.ts). */
  heldNamed?: HeldValuesNamed;
  /** The kept start's answer, its earlier held-for-words actions replaced (replace-held.ts). */
  replaceHeld?: (ctx: TrustedContext | null, out: Outcome) => Promise<Outcome>;
  /** Keeps a start held for the agent's check held on its action (engine hold-for-check.ts). */
  holdForCheck?: (ctx: TrustedContext | null, actionId: string) => Promise<void>;
}
