import type { CapabilityHit } from "../../engine/capability-search";
import { queryClauses } from "../../engine/query-clauses";
import { asksOnlyToRead, CLEAR_LEAD, topMatch } from "../../engine/top-match";
import { askSpans } from "./ask-spans";
import { askAlone, namesOwnRecord } from "./own-ask-words";
import { kindWord } from "./points-back";

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

/**
 * The first ask's own capability, where the words ask several things each on a record they name
 * ("Assign the wrong size tee ticket to Sid and resolve the headphones ticket: parcel found") and
 * the whole words' clear best is a later ask's: the start takes the first ask, and the later one
 * is the words' other ask (other-asks.ts), run in the same call where it needs nobody. Played:
 * the resolve led (the assignment's "not for resolving" counted the other ask's verb against it),
 * and the first ask was only said. Only where the first ask alone clearly means one capability
 * and names its record: "ship it to my office, and buy a mug" is one purchase, as before.
 */
export async function firstOfSeparateAsks(
  intent: string,
  lead: CapabilityHit,
  search: (query: string) => Promise<CapabilityHit[]>,
): Promise<CapabilityHit | undefined> {
  const asks = askSpans(intent, kindWord(lead.applies_to)).asks.slice(0, 4);
  const [first] = asks;
  if (asks.length < 2 || !first) return undefined;
  const alone = topMatch(await askAlone(first.words, search));
  if (!alone?.clear || alone.hit.capability === lead.capability) return undefined;
  if (!namesOwnRecord(first, alone.hit.applies_to)) return undefined;
  const later = await Promise.all(asks.slice(1).map(async (a) => (await askAlone(a.words, search))[0]));
  const leads = asks
    .slice(1)
    .some((a, i) => later[i]?.capability === lead.capability && namesOwnRecord(a, lead.applies_to));
  return leads ? alone.hit : undefined;
}
