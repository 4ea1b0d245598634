import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { code } from "../connectors/sdk/markdown";
import { type NarrowedListing, withParams } from "./listing-words";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";
import { firstTable } from "./table-cells";

/**
 * A state read as every state from it on (reached-where.ts) where one page cannot show them: the
 * listing has more pages than this one, or its table no column of the state to cut the rows by.
 * The listing is read again filtered by the state named, as the words alone asked it before
 * (review 61b: "orders I paid" among eleven orders lost its filter, and the unpaid ones were
 * listed), and one line names the later states, each to be read by its own filter.
 */
export async function reachedOrNamed(
  backend: BrowseBackend,
  listing: NarrowedListing,
  page: BrowsePage,
): Promise<{ listing: NarrowedListing; page: BrowsePage; said: string }> {
  const entry = listing.excluded.find((e) => e.reached);
  const same = { listing, page, said: "" };
  if (!entry?.reached || page.outcome !== "applied") return same;
  // A page with no rows (its words found none) is no table without the column (review 61d).
  const table = firstTable(page.markdown.split("\n"));
  if (!table || !page.rows) return same;
  const whole = typeof page.total === "number" && page.rows === page.total;
  if (whole && table.names.includes(entry.key)) return same;
  const param = `${entry.key}=${encodeURIComponent(entry.reached)}`;
  const read = await navigate(backend, withParams(page.uri, [param]));
  if (read.outcome !== "applied") return same;
  const later = (entry.kept ?? []).filter((v) => v !== entry.reached);
  const why = whole ? `its rows do not show ${code(entry.key)}` : "it has more than one page";
  const said = `${code(entry.said.join(" "))}: every ${code(entry.key)} from ${entry.reached} on is meant, but this listing takes one at a time and ${why}: shown, ${code(`${entry.key} = ${entry.reached}`)}; the later ones: ${later.map((v) => code(`?${entry.key}=${v}`)).join(", ")}.`;
  return {
    listing: {
      ...listing,
      uri: withParams(listing.uri, [param]),
      withoutWords: withParams(listing.withoutWords, [param]),
      excluded: listing.excluded.filter((e) => e !== entry),
    },
    page: read,
    said,
  };
}
