import { createHash } from "node:crypto";
import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import { whenText } from "../connectors/sdk/when-text";
import { type ActionResponse, respond } from "./action-response";
import { parseActionState } from "./action-state";
import type { ActionRow, EffectRow } from "./action-store";
import { earlierStart } from "./earlier-start";
import { firstIdempotencyKey } from "./effect-ledger";
import type { EngineDeps } from "./engine-deps";
import { canonicalJson } from "./summary-digest";

/**
 * How long a change the server keyed answers a resend of the same request with its first outcome.
 * Ten minutes covers a lost answer and all a client does about it: an HTTP retry within seconds,
 * a host that reconnects, a model that re-plans after a timeout (minutes at worst). Much longer,
 * and a user who asks for the same change again later (a second identical comment, an address
 * changed back and forth) would be told it was done already. An agent that means "once, however
 * late the resend" sends its own idempotency_key, which has no window.
 */
export const SERVER_KEY_WINDOW_MS = 10 * 60_000;

/**
 * What the server's keys begin with. "/" is outside the alphabet of an agent's key (the tool
 * schemas refuse it), so no agent key passes for one: a confirm's audit row shows whose key ran it.
 */
export const SERVER_KEY_PREFIX = "server-made/";

/** A confirm key the server made: the prefix and a request's digest. */
export const SERVER_CONFIRM_KEY = /^server-made\/[0-9a-f]{16}$/;

/** The gateway's ask for a key of the server's: set by the gateway only, never from a tool's arguments. */
export interface ServerKeyAsk {
  /** Whether this caller's confirm of the capability is let through (previewed, nothing consumed). */
  confirmAllowed(capability: AnyCapability): Promise<boolean>;
  /**
   * The request's words as the user sent them, where the start reads only one ask of them: the
   * request the key is made for, so another request sharing that ask is not taken for a resend.
   */
  request?: string;
}

/** A key the server made for one request. */
export interface ServerKey {
  /**
   * Kept on the action a start made (Action.startKey, unique per tenant): one action per request
   * and caller at a time, however many copies of the start arrive at once. Null for an advance:
   * its action is the one it may run, and an action has one effect.
   */
  startKey: string | null;
  /** What the confirm that runs the change is sent with. */
  confirmKey: string;
}

const digest = (asked: unknown) =>
  createHash("sha256").update(canonicalJson(asked)).digest("hex").slice(0, 16);

/**
 * The key of a start: what it asks (capability, words, record, fields) by whom (the agent, or the
 * person calling as themselves). The words count: a field may be taken from them ("… home
 * address", a quoted comment), so other words are another request.
 */
export function serverStartKey(
  actor: Actor,
  input: {
    capability: string;
    intent?: string;
    entity_id?: string;
    patch?: Values;
    serverKey?: ServerKeyAsk;
  },
): ServerKey {
  // The ask's own words and the whole request it is one ask of: two asks of one request are two
  // starts, and an ask shared by two requests is no resend (review 57b).
  const asked = digest({
    capability: input.capability,
    intent: input.intent?.trim() ?? null,
    request: input.serverKey?.request?.trim() ?? null,
    entity_id: input.entity_id ?? null,
    patch: input.patch ?? {},
  });
  return {
    startKey: `${SERVER_KEY_PREFIX}${actor.agentId ?? `user:${actor.userId}`}#${asked}`,
    confirmKey: `${SERVER_KEY_PREFIX}${asked}`,
  };
}

/** The key of an advance: the action, the version it was sent against and the fields it sets. */
export function serverAdvanceKey(input: { action_id: string; version: number; patch: Values }): ServerKey {
  const asked = digest({ action_id: input.action_id, version: input.version, patch: input.patch });
  return { startKey: null, confirmKey: `${SERVER_KEY_PREFIX}${asked}` };
}

/**
 * The action this caller's same start made within the window, answered as it stands; null when
 * there is none (earlierStart: past its window, or ended with nothing run, a key is given up).
 */
export async function sameStartLately(
  deps: EngineDeps,
  actor: Actor,
  key: ServerKey,
): Promise<ActionResponse | null> {
  if (!key.startKey) return null;
  const found = await earlierStart(deps, actor, key.startKey, SERVER_KEY_WINDOW_MS);
  return found ? sameRequestAnswer(deps, found.capability, found.row, key, found.row.createdAt) : null;
}

/**
 * The same advance resent within the window, after the confirm it ran took the action's effect
 * under this advance's key: its outcome, as a resent start gets. Later, or under another key, the
 * advance is answered as usual (the action has moved on; its one effect cannot run twice anyway).
 */
export async function sameAdvanceLately(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  key: ServerKey,
): Promise<ActionResponse | null> {
  const effect = await deps.db.effect.findUnique({ where: { actionId: row.id } });
  if (!effect || firstIdempotencyKey(effect) !== key.confirmKey) return null;
  if (Date.now() - effect.createdAt.getTime() >= SERVER_KEY_WINDOW_MS) return null;
  return sameRequestAnswer(deps, capability, row, key, effect.createdAt, effect);
}

/**
 * The first action of a request, answered to its resend. While its change has not run or is
 * running (open, or claimed), the answer carries the server's key: the gateway's confirm under
 * it runs the change once, or waits for the run in flight and replays it.
 */
async function sameRequestAnswer(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  key: ServerKey,
  at: Date,
  known?: EffectRow,
): Promise<ActionResponse> {
  const effect = known ?? (await deps.db.effect.findUnique({ where: { actionId: row.id } }));
  // Waiting at its confirmation with nothing claimed (a copy sent at once has not confirmed yet,
  // or the system refused the change and it stands open again), or claimed by a run in flight.
  const atConfirmation = capability.nodes.some((n) => n.id === row.node && n.requiresConfirmation);
  const unsettled = (row.status === "open" && atConfirmation && !effect) || effect?.status === "pending";
  const sameRequest = { action_id: row.id, at: at.toISOString() };
  const message = sameRequestMessage({
    ...sameRequest,
    status: row.status,
    effect: effect && { status: effect.status, external_id: effect.externalId },
    error: parseActionState(row.state).last_error?.message,
  });
  return respond(deps, capability, row, {
    outcome: effect?.status === "unknown" ? "unknown" : "applied",
    reason: "same_request",
    message,
    retryable: false,
    same_request: sameRequest,
    ...(unsettled ? { server_key: key.confirmKey } : {}),
  });
}

/**
 * What a resend of a request is told about its first action: what it did, when, that nothing
 * ran twice, and how to make the same change again on purpose (a key of the agent's own).
 */
export function sameRequestMessage(first: {
  action_id: string;
  at: string;
  status?: string;
  effect?: { status: string; external_id?: string | null } | null;
  error?: string;
}): string {
  const by = `action ${first.action_id} (at ${whenText(first.at)})`;
  const again = "To make it again, send start_action with an idempotency_key of your own";
  switch (first.effect?.status) {
    case "applied":
      return `This same change was already made by ${by}: applied${first.effect.external_id ? ` (${first.effect.external_id})` : ""}; nothing ran twice. ${again}`;
    case "unknown":
      return `This same change was already sent by ${by}, and whether it happened is not known yet: nothing was sent again; verify_action settles it`;
    case "pending":
      return `This same change is being made by ${by}: nothing is sent twice`;
    case "failed":
      return `This same change was already tried by ${by} and did not go through${first.error ? ` (${first.error})` : ""}: nothing ran twice`;
    default:
      return `This same request already started ${by}, now ${first.status ?? "open"}; nothing ran twice`;
  }
}
