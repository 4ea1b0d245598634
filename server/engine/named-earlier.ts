import type { Actor } from "../connectors/sdk/define-capability";
import type { EngineDeps } from "./engine-deps";

/** How far back a start's words still name their record for this agent's next starts. */
const WINDOW_MS = 10 * 60_000;

/** Starts read back at most: the agent's latest on this record. */
const LOOKED_AT = 5;

/** Ended so that its record was not the one meant: cancelled, refused, declined by the person. */
const NOT_MEANT = ["cancelled", "refused", "rejected"];

/**
 * Whether the user's words named `record` in a start this agent's person made on it within the
 * last ten minutes (its `from_words`, in the field its capability applies to), and that start did
 * not end cancelled, refused or declined. Sets O and P: words asking two things ("give the charged
 * twice ticket to Bella and raise it to urgent") were started as two actions, the second by the
 * model's own fragment ("raise it to urgent") with the record's id: the first start had read the
 * record from the user's words, yet the second asked the user which ticket. Asked only where the
 * second start's own words name or describe no other record (unnamedRecord); for a start with no
 * words, only this agent's refused start of the same `capability` counts (the same change, made
 * again with the user's answer to what the system refused).
 */
export async function namedEarlier(
  deps: EngineDeps,
  actor: Actor,
  record: string,
  capability?: string,
): Promise<boolean> {
  if (!actor.agentId) return false;
  const rows = await deps.db.action.findMany({
    where: {
      tenantId: actor.tenantId,
      agentId: actor.agentId,
      userId: actor.userId,
      entityId: record,
      // With no words, only the same change the system refused (its record named by the user's
      // words: "assign it to Bruno", who is inactive) made again with the user's answer. Set AE:
      // the assignment to Bella, sent without words, asked which ticket.
      ...(capability ? { capability, status: "refused" } : { status: { notIn: NOT_MEANT } }),
      createdAt: { gte: new Date(Date.now() - WINDOW_MS) },
    },
    orderBy: { createdAt: "desc" },
    take: LOOKED_AT,
    select: { capability: true, state: true },
  });
  return rows.some((r) => {
    const field = deps.capabilities.get(r.capability)?.appliesTo.field;
    const named = (r.state as { from_words?: Record<string, unknown> } | null)?.from_words;
    return !!field && named?.[field] === record;
  });
}
