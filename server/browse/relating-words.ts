import { CONNECTING, FRAMING, words } from "./route-words";

/**
 * Prepositions that join a word to the one after it ("handled by Sara", "number of … tickets").
 * Not "about", "regarding", "concerning": what follows them is a topic, and the word before them
 * is the records' own kind ("complaints about …"), left as it was.
 */
const JOINING = new Set(
  words(
    "by with within for of in into on onto at to from via per over under across along among " +
      "around after before between through toward towards upon off as",
  ),
);

/** Conjunctions: the word before one is a parallel item ("login and billing tickets"), not a relation. */
const CONJUNCTIONS = new Set(words("and or but nor so yet then also plus"));

/**
 * Words that introduce a topic: the word after one is what the records are about ("tickets about
 * login", "tickets for refunds", "tickets from fraudsters": review 53 found those dropped).
 */
const TOPIC = new Set(
  words(
    "about regarding concerning mentioning mention re containing contain titled called named saying with on for from",
  ),
);

/** Words that ask how many rows there are ("number of …", "count …"), never what they say. */
const COUNTING = new Set(words("number count tally breakdown"));

/** Words that ask for the rows grouped by what follows ("per teammate", "for each team"). */
const GROUPING = new Set(words("per"));
const EACH = new Set(words("each every"));

/**
 * The words of `leftover` (those a search's text filter was to match, as the query spelt them)
 * that only relate the query's other words or count their rows, never say what the records are
 * about:
 *
 * - a counting word ("number of resolved tickets", "count tickets …");
 * - a word joined by a preposition to a word that did something else in the query — named the
 *   listing, one of its filter values, a status, a window ("tickets handled by Sara": "handled"
 *   relates the tickets to the filter "Sara"; "number of … tickets");
 * - a word a grouping word leads ("per teammate", "for each teammate").
 *
 * A word that modifies the records' noun ("login tickets", "the login ticket"), follows a word
 * that introduces a topic ("tickets about login") or stands on its own ("tickets login") is the
 * user's own search, and is never one of these. Used only once the text matched no row
 * (opened-section.ts): a relating word then did not say which rows, the other words did, so their
 * rows are the answer; a topic word that matched nothing keeps the honest "no record matches".
 * Every occurrence of the word must relate.
 */
export function relatingWords(q: string, leftover: string): string[] {
  const left = new Set(words(leftover));
  const tokens = words(q);
  // A word the query used for something else than text: it named the listing, a filter, a window.
  const used = (t: string | undefined) => !!t && !left.has(t) && !CONNECTING.has(t) && !FRAMING.has(t);
  const relates = (i: number): boolean => {
    const t = tokens[i] ?? "";
    const before = tokens[i - 1];
    if (before && TOPIC.has(before)) return false;
    if (COUNTING.has(t)) return true;
    if (before && GROUPING.has(before)) return true;
    if (before && EACH.has(before) && JOINING.has(tokens[i - 2] ?? "") && !used(tokens[i + 1])) return true;
    // The word, a preposition, any articles or pronouns (other prepositions too: "worked on by"),
    // then a word the query used.
    let j = i + 1;
    if (!JOINING.has(tokens[j] ?? "")) return false;
    while (j < tokens.length && CONNECTING.has(tokens[j] ?? "") && !CONJUNCTIONS.has(tokens[j] ?? "")) j++;
    return used(tokens[j]);
  };
  return leftover
    .split(" ")
    .filter(Boolean)
    .filter((spelt) => {
      const forms = words(spelt);
      const at = tokens.flatMap((t, i) => (forms.includes(t) ? [i] : []));
      return at.length > 0 && at.every(relates);
    });
}
