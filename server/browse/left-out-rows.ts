import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { amountRows, fullestPage } from "./amount-rows";
import type { Excluded } from "./filter-words";
import { heldValues } from "./held-values";
import { type NarrowedListing, withParams } from "./listing-words";
import { navigate } from "./navigate";
import { reachedOrNamed } from "./reached-or-named";
import type { BrowsePage } from "./render-page";
import { fieldReading, rowsWithField } from "./rows-with-field";
import { cells, cellValue, firstTable, withKeptRows } from "./table-cells";
import { timeWindowRows, windowColumn } from "./time-window-rows";
import { widenedListing } from "./widened-listing";
import { withoutDeniedWords } from "./without-denied-words";

/**
 * The opened listing without the rows holding a value the words deny ("my orders not yet
 * delivered" → no `delivered` row), or any value but the several they name ("high or urgent"),
 * said in one line. Only where the listing is complete (every
 * row on this page, the system's total says so): the rows it left are then every record with
 * another value. A listing with more pages is not cut (the rows of its other pages are unread);
 * the line says so and which values to filter by instead. The filter's column must be in the
 * table, else nothing is cut. Works on whatever table a route rendered, hand-written or imported.
 */
export function withoutValues(
  page: BrowsePage,
  excluded: readonly Excluded[],
  declared: (key: string) => readonly string[],
  before: ReadonlyArray<{ gone: number; denied: string }> = [],
  whole = typeof page.total === "number" && page.rows === page.total,
): { page: BrowsePage; said: string } {
  let markdown = page.markdown;
  let rows = page.rows;
  let items = page.items;
  const said: string[] = [];
  const cut: Array<{ gone: number; denied: string }> = [...before];
  for (const { key, values, said: words, kept: named } of excluded) {
    const denied = named
      ? code([...new Set(words)].join(" or "))
      : words.map((w) => code(`not ${w}`)).join(", ");
    const others = named ?? declared(key).filter((v) => !values.includes(v));
    const instead = others.map((v) => code(`?${key}=${v}`)).join(", ");
    const table = firstTable(markdown.split("\n"));
    const column = table ? table.names.indexOf(key) : -1;
    if (!table || column < 0 || !whole) {
      // No table: no row is left here to cut (set CI: "the rows do not show `status`" above a
      // text search that matched none, of a listing that shows it).
      const why = !table
        ? "no row here"
        : column < 0
          ? `the rows do not show ${code(key)}`
          : "the listing has more than one page";
      said.push(
        `${denied}: not applied (${why}, and the listing takes one ${code(key)} at a time): filter by ${instead}.`,
      );
      continue;
    }
    const body = markdown.split("\n").slice(table.head + 2, table.end);
    const kept = body.filter((l) => !values.includes(cellValue(cells(l)[column] ?? "")));
    const gone = body.length - kept.length;
    // The rows' own list loses the same rows as the table; the footer counts every cut below.
    const next = withKeptRows({ markdown, ...(items ? { items } : {}) }, table, kept, true);
    markdown = next.markdown;
    items = next.items;
    cut.push({ gone, denied });
    rows = (rows ?? body.length) - gone;
    said.push(
      // Set BZ: "1 `priority low`, `priority normal` row" read as one row of two priorities.
      `${denied}: ${gone} row${gone === 1 ? "" : "s"} with ${code(key)} ${values.join(" or ")} left out here; the ${kept.length} shown are every row with ${named ? `${code(key)} ${named.join(" or ")}` : `another ${code(key)}`} (all ${page.total} fit on this page; the listing itself takes one ${code(key)} at a time).`,
    );
  }
  markdown = withCutFooter(markdown, rows, cut);
  return {
    page: { ...page, markdown, ...(rows === undefined ? {} : { rows }), ...(items ? { items } : {}) },
    said: said.join("\n\n"),
  };
}

/**
 * The listing's footer ("Page 1 · 8 in all", or "Page 1 · 5 shown · 8 in all" after an amount)
 * as the cut page stands: how many rows it shows, how many the words left out, then the system's
 * count, so the footer and the line above agree (issue 23: "8 in all" under four rows read as
 * four rows missing).
 */
function withCutFooter(
  markdown: string,
  rows: number | undefined,
  cut: ReadonlyArray<{ gone: number; denied: string }>,
): string {
  if (!cut.length || rows === undefined) return markdown;
  const left = cut.map((c) => `${c.gone} left out (${c.denied})`).join(", ");
  return markdown.replace(
    /^Page (\d+) · (?:\d+ shown · )?(\d+) in all/m,
    (_all, page: string, total: string) => `Page ${page} · ${rows} shown, ${left} · ${total} in all`,
  );
}

/**
 * The listing a search opens as the words shape it: the columns they name, the values they deny
 * left out, and then the rows holding (or not) a value of a column the words added ("with a voucher").
 */
export async function shapedListing(
  backend: BrowseBackend,
  narrowed: NarrowedListing,
  opened: BrowsePage,
  route: RouteDefinition | undefined,
  query = "",
): Promise<{ listing: NarrowedListing; page: BrowsePage; said: string }> {
  const reached = await reachedOrNamed(backend, narrowed, opened);
  const widened = await widenedListing(backend, reached.listing, reached.page, query, route);
  const reading = fieldReading(query, widened.added, route?.columnWords ?? {});
  // "without a ‹field›": its word is read by the column's rows, not as text no row holds — where
  // those rows can be read; else the listing is shaped again with the word denied, as it was.
  const lacking = reading && !reading.holds ? reading.word : null;
  const asRows = lacking
    ? {
        ...widened,
        listing: {
          ...widened.listing,
          denied: widened.listing.denied.filter((w) => w.toLowerCase() !== lacking),
        },
      }
    : widened;
  const shaped = await shapedByWords(backend, reached, asRows, route, query);
  const having = reading ? rowsWithField(shaped.page, reading) : null;
  if (having)
    return { ...shaped, page: having.page, said: [shaped.said, having.said].filter(Boolean).join("\n\n") };
  return asRows === widened ? shaped : shapedByWords(backend, reached, widened, route, query);
}

/** The widened listing with the values the words hold or deny applied, and the amounts and times they bound. */
async function shapedByWords(
  backend: BrowseBackend,
  reached: { said: string },
  widened: Awaited<ReturnType<typeof widenedListing>>,
  route: RouteDefinition | undefined,
  query: string,
): Promise<{ listing: NarrowedListing; page: BrowsePage; said: string }> {
  // Words naming a value a field of the rows holds, which the listing cannot filter by.
  const held = await heldValues(backend, widened.listing, widened.page, route);
  const first = [reached.said, widened.said].filter(Boolean).join("\n\n");
  const wide = held
    ? { listing: held.listing, page: held.page, said: [first, held.said].filter(Boolean).join("\n\n") }
    : { ...widened, said: first };
  // A time window the words set ("in the last 3 days"): its column added where the table lacks
  // it, the fullest page read once for it and any amount, then the rows of each kept.
  const window = wide.listing.window;
  const column = window ? windowColumn(wide.page, window, query) : null;
  const base = column?.added ? await withColumn(backend, wide.page, column.name) : wide.page;
  const full = window ? await fullestPage(backend, base) : base;
  // An amount the words bound ("under $30"): the rows whose money column passes it.
  const amounted = await amountRows(backend, wide.listing, full, query);
  const timed = window ? timeWindowRows(amounted.page, full, window, column?.name ?? null, route) : null;
  const priced = {
    ...wide,
    page: timed?.page ?? amounted.page,
    said: [timed?.said, amounted.said, wide.said].filter(Boolean).join("\n\n"),
  };
  // Words denied that only text could match ("not about login"): the rows holding them go,
  // where the listing read before any amount was whole.
  const whole = typeof wide.page.total === "number" && wide.page.rows === wide.page.total;
  const worded = withoutDeniedWords(priced.page, priced.listing.denied, whole, route);
  const before = worded.cut ? [worded.cut] : [];
  const said = [priced.said, worded.said].filter(Boolean).join("\n\n");
  // A value denied of a filter the listing already applied ("not delivered" beside `?status=shipped`)
  // leaves nothing more out: said, it claimed the rows shown were every other status (set AR).
  const excluded = priced.listing.excluded.filter((e) => {
    const applied = filterValue(priced.listing.uri, e.key);
    return applied === null || e.values.includes(applied);
  });
  // The listing as read: only the values still left out (review 61d: a denial the filter already
  // answered, "open … not resolved", dropped the counts per value beside it).
  const listing = { ...priced.listing, excluded };
  if (!excluded.length || priced.page.outcome !== "applied") {
    const markdown = withCutFooter(worded.page.markdown, worded.page.rows, before);
    return { ...priced, listing, page: { ...worded.page, markdown }, said };
  }
  const declared = (key: string) => {
    const spec = route?.filters?.[key];
    return Array.isArray(spec) ? spec : [];
  };
  // The values' rows are cut from the same whole listing, counted with the words' on the footer.
  const cut = withoutValues(worded.page, excluded, declared, before, whole);
  return { ...priced, listing, page: cut.page, said: [said, cut.said].filter(Boolean).join("\n\n") };
}

/** The page read again with one more of its fields as a column (`?columns=`), or as it was. */
async function withColumn(backend: BrowseBackend, page: BrowsePage, field: string): Promise<BrowsePage> {
  const had = /([?&])columns=([^&]*)/.exec(page.uri);
  const uri = had
    ? page.uri.replace(had[0], `${had[1]}columns=${had[2]},${encodeURIComponent(field)}`)
    : withParams(page.uri, [`columns=${encodeURIComponent(field)}`]);
  const read = await navigate(backend, uri);
  return read.outcome === "applied" ? read : page;
}

/** The value a listing's URI sets for one filter, or null where it sets none. */
function filterValue(uri: string, key: string): string | null {
  const query = uri.indexOf("?");
  return query < 0 ? null : new URLSearchParams(uri.slice(query + 1)).get(key);
}
