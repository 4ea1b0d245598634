/**
 * The words of a request that say what to do, for choosing a capability:
 * - Text the user quotes ('…', "…", “…”, ‘…’, 「…」, 『…』) is content for a free-text field (a
 *   comment, a note), not words of the request: "add a comment: 'refund of 5.00 on its way'" asks
 *   for a comment, not a refund. Only when nothing but the quote is left is it the request itself.
 * - A record id with a known prefix (ord_…, tkt_…) names its entity by the prefix; the rest of it
 *   is a name, not a word of the request (an id that reads "pending" asks for no payment).
 * The whole text still fills a capability's free-text field once the capability is chosen.
 */
import { QUOTED } from "./mask-quotes";

/** The request's words with quotes left out and record ids cut to their prefix. */
export function requestWords(text: string, idPrefixes: readonly string[] = []): string {
  const unquoted = text.replace(QUOTED, " ");
  const words = /[\p{L}\p{N}]/u.test(unquoted) ? unquoted : text;
  if (!idPrefixes.length) return words;
  const escaped = idPrefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");
  // "ord_pending" → "ord_": the prefix still says which entity the request is about.
  return words.replace(new RegExp(`(?<![\\p{L}\\p{N}_])(${escaped})[\\p{L}\\p{N}_-]+`, "giu"), "$1");
}
