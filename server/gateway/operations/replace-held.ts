import { z } from "zod";
import type { GatewayOutcome } from "../gateway-pipeline";
import { actorOf, type TrustedContext } from "../trusted-context";
import type { GatewayDeps } from "./gateway-deps";
import { onAction } from "./on-action";

const actionId = z.string().min(1).max(64);
/** The gateway's own (no tool takes it): the held action and the one taking its place. */
const replaceHeldInputSchema = z.object({ action_id: actionId, by: actionId }).strict();

/** Answers of a start whose action is the one now meant: complete, not a resend's first action. */
const KEPT_OUTCOMES = new Set(["applied", "unknown"]);
const ENDED = new Set(["refused", "cancelled"]);
const FIRST_ACTION = new Set(["idempotent_replay", "same_request"]);

/**
 * A start of a change as the agent called it (composed, with its confirm) takes the place of this
 * caller's earlier actions of the same capability on the same record held only for the user's
 * words (engine held-for-words.ts): each is cancelled (nothing of it had run; the engine's update
 * is conditional on that very state), audited `action.replaced`, and the answer says so in a few
 * words. Cancelling beats carrying the held action on: the new start read its own fields and
 * words afresh, and a held action never has anything to undo. Only a start whose action is kept
 * replaces: complete, not ended, not a resend answered with its first action. The composed start's
 * own tries (another ask run in the same call, cancelled where it does not run) never replace.
 */
export function replaceHeldOperation(deps: GatewayDeps) {
  const replace = onAction(deps)("action.replaced", "advance", replaceHeldInputSchema, (input, caller) =>
    deps.engine.cancel(actorOf(caller), input.action_id, { replacedBy: input.by }),
  );
  return async (ctx: TrustedContext | null, out: GatewayOutcome): Promise<GatewayOutcome> => {
    const by = out.action_id;
    if (!ctx || typeof by !== "string" || !KEPT_OUTCOMES.has(out.outcome)) return out;
    if (ENDED.has(String(out.status)) || FIRST_ACTION.has(String(out.reason))) return out;
    const held = await deps.engine.heldForWords(actorOf(ctx), by);
    const replaced: string[] = [];
    for (const id of held) {
      const ended = await replace(ctx, { action_id: id, by });
      if (ended.outcome === "applied" && ended.status === "cancelled") replaced.push(id);
    }
    if (!replaced.length) return out;
    const which = replaced.length === 1 ? "action" : "actions";
    return {
      ...out,
      message: `${out.message} — replaces held ${which} ${replaced.join(", ")}, now cancelled: nothing of it had run`,
      replaced,
    };
  };
}
