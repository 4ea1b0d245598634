import type { BrowseBackend } from "../sdk/browse-backend";
import { isOutcome } from "../sdk/route-pages";
import type { HelpdeskTeammate } from "./helpdesk-adapter";
import { listTickets } from "./helpdesk-records";

/** The ticket statuses counted per teammate, in their lifecycle's order. */
export const COUNTED_STATUSES = ["open", "pending", "resolved", "closed"] as const;
/** Tickets read for the counts: the helpdesk's own page cap. */
const READ = 100;

export type TeammateCounts = Record<(typeof COUNTED_STATUSES)[number], number>;

/**
 * How many of the tickets this caller may see each teammate has, by status, and the line that
 * says what was counted. Played (issue 23, sets AI, AK, AL): "how many tickets has each teammate
 * resolved", "who has the most open tickets", "which teammate has the most tickets" opened the
 * teammates, with no counts, and the model listed every ticket to count them itself. Null where
 * the tickets cannot be read now: the page then shows the teammates alone.
 */
export async function teammateTicketCounts(
  backend: BrowseBackend,
  mates: readonly HelpdeskTeammate[],
): Promise<{ counts: Map<string, TeammateCounts>; line: string } | null> {
  const page = await listTickets(backend, { page: 1, perPage: READ });
  if (isOutcome(page)) return null;
  const counts = new Map<string, TeammateCounts>(
    mates.map((m) => [m.id, { open: 0, pending: 0, resolved: 0, closed: 0 }]),
  );
  let unassigned = 0;
  for (const t of page.data) {
    const own = t.assignee_id ? counts.get(t.assignee_id) : undefined;
    if (!t.assignee_id) unassigned++;
    if (own && (COUNTED_STATUSES as readonly string[]).includes(t.status))
      own[t.status as keyof TeammateCounts]++;
  }
  const seen = page.next_page
    ? `the first ${page.data.length} of the tickets you can see`
    : `the ${page.data.length} tickets you can see`;
  return {
    counts,
    line: `Tickets assigned to each, by status (of ${seen}; ${unassigned} unassigned).`,
  };
}
