import { EventEmitter } from "node:events";

/** One audit row as the live monitor receives it (already redacted). */
export interface PublishedAuditEvent {
  seq: number;
  tenantId: string;
  agentId: string | null;
  userId: string | null;
  face: string;
  operation: string;
  target: string | null;
  capability: string | null;
  arguments: unknown;
  decision: string | null;
  outcome: string;
  message: string | null;
  latencyMs: number;
  actionId: string | null;
  actionKey: string | null;
  requestId: string | null;
  createdAt: string;
}

// One emitter per process, kept on globalThis so Next.js dev reloads share it.
const holder = globalThis as typeof globalThis & { __signpostEvents?: EventEmitter };
function emitter(): EventEmitter {
  if (!holder.__signpostEvents) {
    holder.__signpostEvents = new EventEmitter();
    holder.__signpostEvents.setMaxListeners(0);
  }
  return holder.__signpostEvents;
}

/**
 * Subscribes to every audit event written in this process, in order. Returns the unsubscribe
 * function. Subscribers filter by tenant themselves (the monitor must).
 */
export function subscribeAuditEvents(listener: (event: PublishedAuditEvent) => void): () => void {
  emitter().on("audit", listener);
  return () => emitter().off("audit", listener);
}

export function publishAuditEvent(event: PublishedAuditEvent): void {
  // A failing subscriber must not fail the operation that was audited.
  for (const l of emitter().listeners("audit")) {
    try {
      (l as (e: PublishedAuditEvent) => void)(event);
    } catch {
      /* ignored: subscribers own their errors */
    }
  }
}
