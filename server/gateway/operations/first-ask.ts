import type { CapabilityHit } from "../../engine/capability-search";
import { queryClauses } from "../../engine/query-clauses";
import { asksOnlyToRead, CLEAR_LEAD, topMatch } from "../../engine/top-match";

/**
 * Among near-tied matches of words that ask several things, the one the user asked first: it is
 * started, and the rest are named as also asked (other-asks.ts). Played (issue 23): "Tell the
 * customer on the tee ticket that we have sent an L, and set it to pending" matched the comment
 * and the status change about as well; the comment, asked first, is what the user began with.
 * Only where the first ask, searched alone, clearly means one of the near matches; otherwise the
 * matches stand. `search` is the caller's (audited) capability search.
 */
export async function firstOfSeveralAsks(
  intent: string,
  hits: readonly CapabilityHit[],
  search: (query: string) => Promise<CapabilityHit[]>,
): Promise<CapabilityHit | undefined> {
  const asks = queryClauses(intent.toLowerCase()).filter(
    (c) => c.role === "request" && !asksOnlyToRead(c.text),
  );
  if (asks.length < 2 || !asks[0]) return undefined;
  const best = hits[0]?.score ?? 0;
  const near = hits.filter((h) => !h.off_topic && h.score > 0 && h.score >= best * (1 - CLEAR_LEAD));
  if (near.length < 2) return undefined;
  const alone = topMatch(
    (await search(asks[0].text)).filter((h) => !h.not_for?.length && !h.topic_only && !h.off_topic),
  );
  return alone?.clear ? near.find((h) => h.capability === alone.hit.capability) : undefined;
}
