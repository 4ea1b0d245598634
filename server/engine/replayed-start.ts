import { createHash } from "node:crypto";
import type { Actor, Values } from "../connectors/sdk/define-capability";
import { type ActionResponse, respond } from "./action-response";
import { earlierStart } from "./earlier-start";
import type { EngineDeps } from "./engine-deps";
import { canonicalJson } from "./summary-digest";

// A start under a key of the agent's: stored as the key with what was asked, so a resend is the
// first action and another ask under the same key is refused (server-made-key.ts: without one).

/**
 * The capability of the action this caller's key started, if any: a start by the user's words
 * that is resent under its key goes back to that capability, whatever the search says now.
 */
export async function capabilityStartedWith(
  deps: EngineDeps,
  actor: Actor,
  idempotencyKey: string,
): Promise<string | null> {
  return (
    (await earlierStart(deps, actor, { startsWith: startKeyPrefix(actor, idempotencyKey) }))?.capability.id ??
    null
  );
}

/** The caller's part of a start key: the key is theirs (their agent's, or theirs as a person). */
export const startKeyPrefix = (actor: Actor, idempotencyKey: string) =>
  `${actor.agentId ?? `user:${actor.userId}`}:${idempotencyKey}#`;

/** What a start asks for, as a short digest: the capability, its record and every field sent. */
export function requestFingerprint(input: {
  capability: string;
  entity_id?: string;
  patch?: Values;
}): string {
  const asked = canonicalJson({
    capability: input.capability,
    entity_id: input.entity_id,
    // Not the words: a resend may word the request differently, and the key decides.
    patch: input.patch ?? {},
  });
  return createHash("sha256").update(asked).digest("hex").slice(0, 16);
}

/**
 * A start resent with its idempotency key (the answer was lost, the agent tries again): the
 * action that key started, as it stands now, never a second one — so the confirm that follows
 * finds the first effect and replays it. The same key with another ask (another capability,
 * record or field value) is refused, naming the action the key belongs to: the first action's
 * effect must never run in answer to a different request.
 */
export async function replayedStart(
  deps: EngineDeps,
  actor: Actor,
  keyPrefix: string,
  startKey: string,
): Promise<ActionResponse | null> {
  const found = await earlierStart(deps, actor, { startsWith: keyPrefix });
  if (!found) return null;
  if (found.startKey !== startKey)
    return {
      outcome: "conflict",
      reason: "idempotency_key_reused",
      message: `This idempotency key already started action ${found.row.id} (${found.capability.id}${found.row.entityId ? ` for ${found.row.entityId}` : ""}) with other values; send a new key for a new request, or continue that action`,
      retryable: false,
      action_id: found.row.id,
      next_actions: [
        {
          tool: "get_context",
          args: { action_id: found.row.id },
          description: "Read the action this key started",
        },
      ],
    };
  return respond(
    deps,
    found.capability,
    found.row,
    {
      outcome: "applied",
      reason: "idempotent_replay",
      message: `This idempotency key already started action ${found.row.id} (now ${found.row.status}); no second action`,
      retryable: false,
    },
    { withInputs: true, options: "full" },
  );
}
