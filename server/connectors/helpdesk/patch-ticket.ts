import type { EffectResult, Verification } from "../sdk/define-capability";
import { toEffectResult } from "../sdk/effect-result";
import { sendWithRetries } from "../sdk/http-client";
import type { HelpdeskAdapter, HelpdeskTicket } from "./helpdesk-adapter";

/**
 * One narrow change through the legacy generic PATCH, sent with the action key, and checked
 * against the ticket afterwards: a 200 that left the ticket as it was is not applied.
 */
export async function patchTicket(
  adapter: HelpdeskAdapter,
  ticketId: string,
  change: Partial<Pick<HelpdeskTicket, "assignee_id" | "priority" | "status" | "resolution" | "team_id">>,
  key: string,
  budget: { attempts: number; timeoutMs: number },
): Promise<EffectResult> {
  const res = await sendWithRetries(
    adapter.http,
    {
      method: "PATCH",
      path: `/v1/tickets/${encodeURIComponent(ticketId)}`,
      idempotencyKey: key,
      body: change,
    },
    budget,
  );
  return toEffectResult(res, async () => {
    const after = await adapter.ticket(ticketId);
    const same =
      after &&
      Object.entries(change).every(([k, v]) => (after as unknown as Record<string, unknown>)[k] === v);
    return same
      ? { applied: true, externalId: ticketId }
      : { applied: false, message: `ticket ${ticketId} did not change` };
  });
}

export async function verifyTicket(
  adapter: HelpdeskAdapter,
  ticketId: string,
  change: Record<string, unknown>,
): Promise<Verification> {
  const after = await adapter.ticket(ticketId);
  const now = after
    ? Object.fromEntries(
        Object.keys(change).map((k) => [k, (after as unknown as Record<string, unknown>)[k]]),
      )
    : {};
  const happened = !!after && Object.entries(change).every(([k, v]) => now[k] === v);
  const details = {
    status: happened ? "changed" : "unchanged",
    ticket_id: ticketId,
    ...now,
    ticket_version: after?.updated_at ?? null,
  };
  return happened ? { happened: true, externalId: ticketId, details } : { happened: false, details };
}
