import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { readWords } from "../connectors/sdk/negated-words";
import { countIsTheAnswer, countsPerValue } from "./counts-per-value";
import { cutPage } from "./cut-page";
import { withFilterWords } from "./filtered-line";
import { shapedListing } from "./left-out-rows";
import { type NarrowedListing, withParams } from "./listing-words";
import type { MayNavigate } from "./navigable-routes";
import { navigate } from "./navigate";
import { listingRowFound, oneRecord, wordRowFound } from "./one-record";
import { recordsRead } from "./records-read";
import { relatingWords } from "./relating-words";
import { orderAlreadyStated } from "./sort-words";
import { firstTable } from "./table-cells";
import { rowsShownOnly, unfilteredWordsLine } from "./unfiltered-words-line";
import { wordsRowsShow } from "./words-rows-show";

/** How many words of a query that found nothing are each searched alone. */
export const WORDS_ALONE = 3;

/**
 * The words of a query that found nothing together, each to search alone: at most WORDS_ALONE,
 * and never a negation ("not" alone is in most texts; it is searched with the word it denies).
 */
export function wordsAlone(said: readonly string[]): string[] {
  return said.filter((w) => w && !readWords(w)[0]?.negation).slice(0, WORDS_ALONE);
}

/** An English plural's singular forms ("deliveries" → delivery, deliverie; "boxes" → box, boxe). */
function singularsOf(word: string): string[] {
  if (word.length <= 3 || word === "news" || !/[^su]s$/.test(word)) return [];
  const forms = [word.slice(0, -1)];
  if (word.endsWith("ies")) forms.unshift(`${word.slice(0, -3)}y`);
  if (/(?:x|ch|sh|ss)es$/.test(word)) forms.unshift(word.slice(0, -2));
  return forms;
}

/** Marks an opened listing that holds none of the words' records (never shown). */
export const NONE_MARK = "\u0000none\u0000";

/**
 * The opened listing as the search shows it, or the page of the one record its words fit by its
 * text (`record`: then it is the whole answer, one-record.ts).
 */
export interface OpenedSection {
  markdown: string;
  record: boolean;
  /** The words' text found the rows shown (a record, or rows its text filter kept). */
  byText?: boolean;
}

/**
 * The named page as a section of the search answer: opened as `navigate` opens it (the same
 * permission check and audit row), cut at a line under OPENED_CHARS. Only a page that rendered
 * is carried; anything else (refused, unavailable) leaves the answer as a plain search. Words
 * left over from naming the listing either narrowed it (and a listing they match nowhere says so
 * in one line with the link to all of it) or are said not to have filtered it; where they fit
 * one row by its text, that record's page answers instead (`mayOpenRecord`: one-record.ts).
 * Words that matched nothing and only related the others (relating-words.ts) are said not used.
 */
export async function openedSection(
  backend: BrowseBackend,
  narrowed: NarrowedListing,
  route: RouteDefinition | undefined,
  may: MayNavigate,
  q: string,
  mayOpenRecord = true,
): Promise<OpenedSection | null> {
  const first = await navigate(backend, narrowed.uri);
  if (first.outcome !== "applied") return null;
  // The text matched no row, and each of its words only relates the others or counts their rows
  // ("tickets handled by Sara", "number of resolved tickets": relating-words.ts): they did not
  // say which rows, the other words did (the listing, its filters, a status, a window). Those
  // rows are the answer, with a line that the words matched nothing; the text filter's emptiness
  // is no answer to the question ("No ticket matches `handled`" sent the model to list them).
  // A word of what the records are about ("login tickets") keeps the honest "no record matches".
  const unmatched =
    narrowed.leftover && narrowed.textFilter && !first.rows
      ? narrowed.leftover.split(" ").filter(Boolean)
      : [];
  const relating =
    unmatched.length > 0 && relatingWords(q, narrowed.leftover).length === unmatched.length
      ? await navigate(backend, narrowed.withoutWords)
      : null;
  const unused = relating?.outcome === "applied";
  const opened = unused && relating ? relating : first;
  const fromWords = unused ? { ...narrowed, uri: narrowed.withoutWords, textFilter: null } : narrowed;
  // Words naming a field the rows hold beyond the table show it as a column; values they deny go.
  const { listing, page, said: widened } = await shapedListing(backend, fromWords, opened, route, q);
  const title = route?.title ?? "";
  const heading = link(page.title, page.uri);
  const { leftover, textFilter, withoutWords, unsorted, sorted, filtered, ambiguous } = listing;
  // The filters the words set, said in words (a team's name, not only its id in the address).
  // Where the page states its filters, that one line names them in the words (withFilterWords).
  const worded = withFilterWords(page.markdown, filtered);
  const said = [
    filtered.length && !worded ? `Filtered: ${filtered.map(escapeText).join(", ")}.` : "",
    ...ambiguous,
    widened,
  ]
    .filter(Boolean)
    .map((line) => `${line}\n\n`)
    .join("");
  // Words that fit one row by its text, not asking for a list: that record's page is the answer
  // (issue 23: the model opened the one row next), before any of the listing's links are recorded.
  // Not where the words shaped the listing (a column they asked for, values kept or left out):
  // that listing answers them ("when did it ship": the record's page may not show the time).
  const mayOpen = mayOpenRecord && !widened && ambiguous.length === 0;
  // Only where the text found nothing: rows it found that a window or bound left out are said there.
  if (leftover && textFilter && page.rows === 0 && !opened.rows) {
    // "Tickets" → "No ticket matches …; all tickets: …"; a longer title is named as it is.
    const plural = title.toLowerCase();
    const one = /^[a-z]+s$/.test(plural)
      ? `No ${plural.slice(0, -1)} matches`
      : `Nothing in ${escapeText(title)} matches`;
    // What the text filter read, so "none" is final: not "maybe it only reads subjects".
    const searched = route?.textSearches ? ` (searched: ${escapeText(route.textSearches)})` : "";
    // Several words: each alone, at most three (round 11's model could not tell whether both had
    // to match, and searched "login" again): the first that some row holds is the answer.
    const spelt = leftover.split(" ").filter(Boolean);
    const each = wordsAlone(spelt);
    // A plural is tried in the singular too: "refunds" is in no "Kettle refund" (set AO).
    const singular = spelt.flatMap((w) => singularsOf(w).filter((one) => !each.includes(one))).slice(0, 4);
    const tried = [...(each.length > 1 || each.length < spelt.length ? each : []), ...singular];
    for (const word of tried) {
      const alone = await navigate(
        backend,
        withParams(withoutWords, [`${textFilter}=${encodeURIComponent(word)}`]),
      );
      if (alone.outcome !== "applied" || !(alone.rows ?? 0)) continue;
      // One row, showing the word that found it: its page, said as found by that word alone.
      // Played: a listing of the one row holding a title's first word, and the model opened it next.
      const found = mayOpen ? wordRowFound(alone, route, q, word, leftover) : null;
      const record = await oneRecord(backend, found);
      if (record) return { record: true, byText: true, markdown: record };
      return {
        record: false,
        byText: true,
        markdown: `## ${link(alone.title, alone.uri)} (opened here)\n\n${said}${one} every word of ${code(leftover)}${searched}; these hold ${code(word)}:\n\n${cutPage(alone)}`,
      };
    }
    // None did; unless the rows show the words in a column ("unassigned", "high"): then the listing without
    // them is the answer, said as not filtered by them, for the model to read the column.
    const all = await navigate(backend, withoutWords);
    const shown = all.outcome === "applied" ? wordsRowsShow(leftover, all.markdown) : [];
    if (shown.length)
      return {
        record: false,
        markdown: `## ${link(all.title, all.uri)} (opened here)\n\n${said}${shown.map(code).join(", ")} matched no ${escapeText(route?.textSearches ?? "text")}, and this listing has no filter for it: the rows are not narrowed by it, read their columns.\n\n${cutPage(all)}`,
      };
    const nor = tried.length ? `, nor ${tried.map(code).join(" or ")} alone` : "";
    // What was read, counted and (when few) named, so "none" is final (issue 23).
    const read = route ? await recordsRead(route, all, withoutWords, may) : null;
    if (read)
      return {
        record: false,
        markdown: `${NONE_MARK}## ${heading} (opened here)\n\n${said}${one} ${code(leftover)}${nor}, in ${read}`,
      };
    return {
      record: false,
      markdown: `${NONE_MARK}## ${heading} (opened here)\n\n${said}${one} ${code(leftover)}${nor}${searched}; all ${escapeText(plural)}: ${link(title, withoutWords)}`,
    };
  }
  // Words not used are no row's words either: no record is opened by them.
  const record =
    mayOpen && !unused ? await oneRecord(backend, listingRowFound(listing, page, route, q)) : null;
  const byText = !!(leftover && textFilter);
  if (record) return { record: true, byText, markdown: record };
  const whole = cutPage(worded ? { ...page, markdown: worded } : page);
  const only = textFilter || unused ? null : rowsShownOnly(leftover, whole, page.uri);
  const kept = only?.markdown ?? whole;
  // Only the words still left once columns were named ("requester") are said not used.
  const notUsed =
    unused && leftover
      ? `${leftover.split(" ").map(code).join(", ")} matched nothing${route?.textSearches ? ` (searched: ${escapeText(route.textSearches)})` : ""}: not used to narrow these rows.`
      : "";
  // Counted per value only where the rows shown are the listing's own: words that left rows out
  // ("unresolved", "but the closed ones") filter nothing the counts could keep (review 54).
  const ownRows = page.rows === opened.rows && page.total === opened.total;
  // Nor where words kept only the rows showing them (review 58b: "how many of my orders in each
  // status have a kettle" counted all eight beside the two kettle orders).
  // Nor beside values the words leave out that could not be cut (review 61b: a listing of more
  // pages counted "how many tickets has each team resolved" over every status).
  const perValue =
    ownRows && !only && !listing.excluded.length
      ? await countsPerValue(backend, route, page.uri, q, page.total)
      : null;
  const unread = notUsed || only?.line || (textFilter || unused ? "" : unfilteredWordsLine(leftover, kept));
  const lines = [
    perValue ?? "",
    unread,
    unsorted && !orderAlreadyStated(unsorted, kept)
      ? `${code(unsorted)} did not sort this listing: it declares no such sort.`
      : "",
    // A listing that does not state its order itself (an imported one) is told it here: the
    // rows are in the order the parameters the words set ask of the system.
    sorted && !orderAlreadyStated(sorted.order, kept)
      ? `${sorted.order[0]?.toUpperCase()}${sorted.order.slice(1)}: sorted by ${sorted.params.map((p) => code(decodeURIComponent(p))).join(" ")}.`
      : "",
  ]
    .filter(Boolean)
    .map((line) => `${line}\n\n`)
    .join("");
  // The counts answer a question that asks only them: the table's rows are one link away, every
  // other line of the page kept (review 58: its filters and whose records they are went with it).
  // Nor where the words added a column (review 61d: "how many orders were refunded, per status"
  // hid the `refunded` column behind counts of every order).
  const columned = new URLSearchParams(page.uri.split("?")[1] ?? "").has("columns");
  const body =
    perValue && !sorted && !unsorted && !unread && !columned && countIsTheAnswer(q)
      ? withoutTable(kept, link(page.title, page.uri))
      : kept;
  return { record: false, byText, markdown: `## ${heading} (opened here)\n\n${said}${lines}${body}` };
}

/** A page without its first table's rows, said so with the link to them. */
function withoutTable(markdown: string, rows: string): string {
  const lines = markdown.split("\n");
  const table = firstTable(lines);
  if (!table) return markdown;
  const gone = `Rows not shown (the counts answer the words): ${rows}.`;
  return [...lines.slice(0, table.head), gone, ...lines.slice(table.end)].join("\n");
}
