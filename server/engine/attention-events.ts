import { EventEmitter } from "node:events";

/**
 * Something now waits for a person: an approval was opened, or an agent asked for a permission.
 * Published in this process right after the row is written (and committed), so whoever tells
 * people (server/gateway/notify-people.ts) never delays or fails the agent's call.
 */
export type AttentionEvent =
  | { kind: "approval"; tenantId: string; approvalId: string }
  | { kind: "permission_request"; tenantId: string; requestId: string };

const holder = globalThis as typeof globalThis & { __signpostAttention?: EventEmitter };
function emitter(): EventEmitter {
  if (!holder.__signpostAttention) {
    holder.__signpostAttention = new EventEmitter();
    holder.__signpostAttention.setMaxListeners(0);
  }
  return holder.__signpostAttention;
}

export function subscribeAttention(listener: (event: AttentionEvent) => void): () => void {
  emitter().on("attention", listener);
  return () => emitter().off("attention", listener);
}

export function publishAttention(event: AttentionEvent): void {
  for (const l of emitter().listeners("attention")) {
    try {
      (l as (e: AttentionEvent) => void)(event);
    } catch {
      /* a failing listener must not fail the operation that published */
    }
  }
}
