import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import { takesEmailAddress } from "../connectors/sdk/define-route";
import { code, escapeText, link } from "../connectors/sdk/markdown";
import { fullestPage, rowsRead } from "./amount-rows";
import { type RouteDefinition, routeTable } from "./browse-routes";
import { cutPage } from "./cut-page";
import { withFilterWords } from "./filtered-line";
import { narrowedListing, withParams } from "./listing-words";
import { kindWords, quotedId } from "./named-record";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";
import { ASKING, CONNECTING, FRAMING, STOP, words } from "./route-words";
import { cells, cellValue, firstTable } from "./table-cells";

/** Columns one probe asks for (`?columns=` takes six), and probes per search at most. */
const PER_PROBE = 6;
const PROBES = 3;

/** A cell's value with a link's text for the link ("[x_1](s://x/x_1)" → "x_1"). */
function heldValue(cell: string): string {
  const value = cellValue(cell);
  return /^\[([^\]]*)\]\([^)]*\)$/.exec(value)?.[1] ?? value;
}

/** The ids of the rows of a page's table whose `field` cell holds exactly `id`. */
function rowsHolding(page: BrowsePage, field: string, id: string): Set<string> {
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  const at = table ? table.names.indexOf(field) : -1;
  if (!table || at < 1) return new Set();
  const rows = lines.slice(table.head + 2, table.end).map(cells);
  return new Set(rows.filter((r) => heldValue(r[at] ?? "") === id).map((r) => cellValue(r[0] ?? "")));
}

/** The one listing of other records the words name by its title ("<records>"), never the id's own kind's. */
function listingNamed(
  routes: readonly RouteDefinition[],
  nouns: ReadonlySet<string>,
  own: ReadonlySet<string>,
): RouteDefinition | null {
  const naming = routes.filter((r) => {
    const title = new Set(words(r.title));
    return (
      !r.pattern.includes("{") && [...nouns].some((n) => title.has(n)) && ![...own].some((k) => title.has(k))
    );
  });
  return naming.length === 1 ? (naming[0] ?? null) : null;
}

/**
 * Issue 23: "which <records> are about <kind> <id>?" opened the id's own kind's listing, then no
 * record's text held the id; the rows' own field did. Where the words quote one record id of a
 * declared kind beside the noun of another listing's records, that listing answers, narrowed to
 * the rows whose own fields (shown or `moreColumns`) hold exactly that id, with the column shown
 * and one line saying so and how many rows were read (the bounded read of amount-rows.ts). A
 * filter the listing declares for that field is used instead. Null when the words are not that.
 */
export async function idRows(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  q: string,
  visible: (r: RouteDefinition) => boolean,
): Promise<string | null> {
  const quoted = quotedId(among, q);
  if (!quoted) return null;
  const { id } = quoted;
  const own = kindWords(quoted.kinds);
  const rest = quoted.rest.join(" ");
  const restWords = words(rest).filter((w) => !STOP.has(w) && !FRAMING.has(w) && !ASKING.has(w));
  const nouns = new Set(restWords.filter((w) => !CONNECTING.has(w) && !own.has(w)));
  const route = nouns.size ? listingNamed(routeTable(among).filter(visible), nouns, own) : null;
  if (!route) return null;
  // The listing's own filters the other words name ("open <records> …") still apply.
  const listing = await narrowedListing(backend, route.pattern, route, restWords, rest);
  // Words neither naming the listing, its filters nor the id's kind (or denied): not this question.
  // The kind's id field is its kind ("<records> <kind>_id <id>": set BD searched the records' text).
  const ofKind = (w: string) => own.has(w) || w.split("_").every((p) => own.has(p) || p === "id");
  if (listing.denied.length || words(listing.leftover).some((w) => !ofKind(w))) return null;
  const filtered = listing.filtered.length
    ? `Filtered: ${listing.filtered.map(escapeText).join(", ")}.\n\n`
    : "";
  const opened = await navigate(backend, listing.withoutWords);
  if (opened.outcome !== "applied") return null;
  // Where the page states its filters, that one line names them in the words (withFilterWords).
  const section = (page: BrowsePage, line: string) => {
    const worded = withFilterWords(page.markdown, listing.filtered);
    const said = worded ? "" : filtered;
    return `## ${link(page.title, page.uri)} (opened here)\n\n${said}${line}\n\n${cutPage(worded ? { ...page, markdown: worded } : page)}`;
  };
  // A filter the listing declares for the id's kind ("<kind>_id") is the system's own answer.
  const filters = route.filters ?? {};
  const byFilter = (field: string) => {
    const spec = filters[field];
    return Array.isArray(spec) ? spec.includes(id) : typeof spec === "object" && !takesEmailAddress(spec);
  };
  const declared = Object.keys(filters).find(
    (f) => byFilter(f) && words(f.replace(/_/g, " ")).some((w) => own.has(w)),
  );
  const viaFilter = async (field: string) => {
    const page = await navigate(
      backend,
      withParams(listing.withoutWords, [`${field}=${encodeURIComponent(id)}`]),
    );
    return page.outcome === "applied" ? section(page, `Filtered: ${code(field)} = ${code(id)}.`) : null;
  };
  if (declared) return viaFilter(declared);
  const page = await fullestPage(backend, opened);
  const table = firstTable(page.markdown.split("\n"));
  if (!table || !page.items) return null;
  // The fields the rows show, then the rows' own further fields, a few probes at most.
  let field = table.names.slice(1).find((f) => rowsHolding(page, f, id).size > 0);
  const more = (page.moreColumns ?? []).filter((f) => !table.names.includes(f));
  for (let i = 0; !field && i < Math.min(more.length, PER_PROBE * PROBES); i += PER_PROBE) {
    const batch = more.slice(i, i + PER_PROBE);
    const probe = await navigate(
      backend,
      withParams(page.uri, [`columns=${batch.map(encodeURIComponent).join(",")}`]),
    );
    if (probe.outcome === "applied") field = batch.find((f) => rowsHolding(probe, f, id).size > 0);
  }
  const read = rowsRead(page, page.rows ?? 0);
  if (!field)
    return `## ${link(page.title, page.uri)} (opened here)\n\n${filtered}No row holds ${code(id)} in any of its fields (${read}).`;
  if (byFilter(field)) return viaFilter(field);
  const shaped = table.names.includes(field)
    ? page
    : await navigate(backend, withParams(page.uri, [`columns=${encodeURIComponent(field)}`]));
  if (shaped.outcome !== "applied") return null;
  const keep = rowsHolding(shaped, field, id);
  const lines = shaped.markdown.split("\n");
  const shown = firstTable(lines);
  if (!shown) return null;
  const body = lines.slice(shown.head + 2, shown.end);
  const kept = body.filter((l) => keep.has(cellValue(cells(l)[0] ?? "")));
  const markdown = [...lines.slice(0, shown.head + 2), ...kept, ...lines.slice(shown.end)]
    .join("\n")
    .replace(
      /^Page (\d+) · (\d+) in all/m,
      (_all, n: string, total: string) =>
        `Page ${n} · ${kept.length} shown, ${Number(total) - kept.length} left out (not ${code(field)} ${code(id)}) · ${total} in all`,
    );
  const narrowed: BrowsePage = {
    ...shaped,
    markdown,
    rows: kept.length,
    ...(shaped.items ? { items: shaped.items.filter((i) => keep.has(i.id)) } : {}),
  };
  return section(narrowed, `Rows whose ${code(field)} is ${code(id)} (${rowsRead(shaped, body.length)}).`);
}
