import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { asksWhen, eventTimeColumns } from "./event-time-columns";
import { type NarrowedListing, withParams } from "./listing-words";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";
import { words } from "./route-words";
import { withoutWords as lackedWords } from "./rows-with-field";
import { columnsWordsName } from "./words-rows-show";

/** How many columns a search's words add at most. */
const COLUMNS_ADDED = 3;

/**
 * The listing a search opens, with the columns its words name added: a word naming a field the
 * rows hold beyond the table ("requester", "category") shows that field
 * (`?columns=requester_email`) instead of being searched for as text or said not to filter. The
 * fields are the listing's own (`moreColumns` of the page without the words' text), so nothing
 * an agent sent becomes a column name. Words asking when an event happened ("when was it
 * delivered") add the field holding its time, though the event's word also set a filter
 * (event-time-columns.ts). So does a word of the listing's own keywords that names a field
 * (set AS: "How much money have I been refunded so far?" opened the orders by "refunded", which
 * was then no word left to add the `refunded` column by). Returns the page and listing unchanged
 * when no word names one; `added` names the columns added.
 */
export async function widenedListing(
  backend: BrowseBackend,
  listing: NarrowedListing,
  page: BrowsePage,
  query = "",
  route?: RouteDefinition,
): Promise<{ listing: NarrowedListing; page: BrowsePage; said: string; added: string[] }> {
  const same = { listing, page, said: "", added: [] };
  const keyed = keywordsSaid(query, route);
  // "without a voucher": a denied word that may name a field, added so its rows can be read
  // (rows-with-field.ts; the word stays denied, for where they cannot be).
  const lacking = new Set(lackedWords(query));
  const deniedField = listing.denied.filter((w) => lacking.has(w.toLowerCase()));
  if (page.outcome !== "applied" || !(listing.leftover || asksWhen(query) || keyed || deniedField.length))
    return same;
  // The text filter may have left no rows to read fields from: the fields of the unfiltered page.
  const plain =
    listing.uri === listing.withoutWords || (page.rows ?? 0) > 0
      ? page
      : await navigate(backend, listing.withoutWords);
  const fields = plain.moreColumns ?? [];
  // A field the words name by its own name ("shipped_at"): that column, and its name's words name
  // no other (set CG: "shipped_at" added three `shipping_…` columns, and not itself).
  const names = new Set(query.toLowerCase().match(/[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+/gu) ?? []);
  const exact = fields.filter((f) => names.has(f.toLowerCase()));
  // Only the exact names' words: another id written ("prod_mug") is still text to find rows by.
  const written = new Set(exact.flatMap((f) => [f.toLowerCase(), ...f.toLowerCase().split("_")]));
  const free = (text: string) =>
    text
      .split(" ")
      .filter((w) => !written.has(w.toLowerCase()))
      .join(" ");
  const byName = columnsWordsName(free(`${listing.leftover} ${keyed}`.trim()), fields, route?.columnWords);
  const byEvent = eventTimeColumns(query, fields);
  const byLack = columnsWordsName(deniedField.join(" "), fields, route?.columnWords);
  const named = {
    // Bounded: a few columns answer the words; more would crowd the table they were asked of.
    columns: [...new Set([...exact, ...byEvent.columns, ...byName.columns, ...byLack.columns])].slice(
      0,
      COLUMNS_ADDED,
    ),
    words: [...written, ...byName.words, ...byEvent.words],
  };
  if (!named.columns.length) return same;
  const naming = new Set(named.words.map((w) => w.toLowerCase()));
  const leftover = listing.leftover
    .split(" ")
    .filter((w) => w && !naming.has(w.toLowerCase()))
    .join(" ");
  const columns = `columns=${named.columns.map(encodeURIComponent).join(",")}`;
  const withoutWords = withParams(listing.withoutWords, [columns]);
  const text =
    leftover && listing.textFilter ? [`${listing.textFilter}=${encodeURIComponent(leftover)}`] : [];
  const uri = withParams(withoutWords, text);
  const widened = await navigate(backend, uri);
  if (widened.outcome !== "applied") return same;
  return {
    listing: {
      ...listing,
      uri,
      withoutWords,
      leftover,
      textFilter: text.length ? listing.textFilter : null,
    },
    page: widened,
    said: `Columns added for your words: ${named.columns.map(code).join(", ")}.`,
    added: named.columns,
  };
}

/** The query's words (as it spelt them) that are the listing's keywords, not its title's. */
function keywordsSaid(query: string, route: RouteDefinition | undefined): string {
  if (!route?.keywords?.length) return "";
  const title = new Set(words(route.title));
  const keywords = new Set(route.keywords.flatMap((k) => words(k)).filter((w) => !title.has(w)));
  const said = (query.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((t) =>
    words(t).some((w) => keywords.has(w)),
  );
  return [...new Set(said)].join(" ");
}
