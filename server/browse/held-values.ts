import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import type { NarrowedListing } from "./listing-words";
import { navigate } from "./navigate";
import type { BrowsePage } from "./render-page";
import { stemmedWords } from "./stemmed-words";
import { cells, cellValue, firstTable } from "./table-cells";

/** Columns one probe asks for (`?columns=` takes six), and probes per search at most. */
const PER_PROBE = 6;
const PROBES = 3;

/** Fields no word names a value of: times, ids. */
const NOT_A_VALUE_FIELD = /(^id$|_id$|_at$|_until$|Id$|At$)/;

/** A URI's path and its parameters, in order. */
function split(uri: string): { path: string; params: Array<[string, string]> } {
  const [path = "", query = ""] = uri.split("?");
  const params = query
    .split("&")
    .filter(Boolean)
    .map((p) => {
      const at = p.indexOf("=");
      return (at < 0 ? [p, ""] : [p.slice(0, at), p.slice(at + 1)]) as [string, string];
    });
  return { path, params };
}

/** A URI with `columns` set to `columns` (merged with those it has) and the parameters `drop` names left out. */
function reshaped(uri: string, columns: readonly string[], drop: ReadonlySet<string> = new Set()): string {
  const { path, params } = split(uri);
  const had = params.find(([k]) => k === "columns")?.[1];
  const all = [...new Set([...(had ? decodeURIComponent(had).split(",") : []), ...columns])];
  const kept = params.filter(([k, v]) => k !== "columns" && !drop.has(`${k}=${v}`));
  const more = all.length ? [["columns", all.map(encodeURIComponent).join(",")] as [string, string]] : [];
  const query = [...kept, ...more].map(([k, v]) => `${k}=${v}`).join("&");
  return query ? `${path}?${query}` : path;
}

const stems = (text: string) => new Set(stemmedWords(text).values());

/** The rows (id → line and the stems of `asked` its cell holds) of a page's table whose `field` cell holds a word of `asked`. */
function rowsHolding(
  page: BrowsePage,
  field: string,
  asked: ReadonlySet<string>,
): Map<string, { line: string; hits: string[] }> {
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  const column = table ? table.names.indexOf(field) : -1;
  const out = new Map<string, { line: string; hits: string[] }>();
  if (!table || column < 0) return out;
  for (const line of lines.slice(table.head + 2, table.end)) {
    const row = cells(line);
    const value = stems(cellValue(row[column] ?? ""));
    const hits = [...asked].filter((s) => value.has(s));
    if (hits.length) out.set(cellValue(row[0] ?? ""), { line, hits });
  }
  return out;
}

/**
 * Words naming a value of a field the rows hold but the listing cannot filter by (a method, a
 * kind shown by `?columns=`): on a complete listing (every row on this page) only the rows
 * holding it are kept, with that column, said in one line; with more pages, the column is shown
 * and the line says the system cannot filter by it. A value filter the same words set whose word
 * is of the field's family (a verb sharing the stem of `<verb>ing_*`) is dropped when rows of
 * other values hold the word: the verb said how, not which status (played: the status filter
 * kept one of two matching orders, and the model spent four more calls). The field must be the
 * only one holding the word; rows are read by `?columns=` on the listing's own fields, at most
 * three probes, values compared by stems, never as patterns. Null when no word names such a value.
 */
export async function heldValues(
  backend: BrowseBackend,
  listing: NarrowedListing,
  page: BrowsePage,
  route: RouteDefinition | undefined,
): Promise<{ listing: NarrowedListing; page: BrowsePage; said: string } | null> {
  if (page.outcome !== "applied" || !listing.leftover || listing.textFilter) return null;
  const filters = route?.filters ?? {};
  const fields = (page.moreColumns ?? []).filter((f) => !(f in filters) && !NOT_A_VALUE_FIELD.test(f));
  if (!fields.length) return null;
  const asked = new Map([...stemmedWords(listing.leftover)].map(([w, s]) => [s, w]));
  // "with no voucher" denies the word after it; "no" is no value asked for (review 63b: it kept
  // the rows whose yes/no column said no, a record holding the denied thing among them).
  for (const negation of ["no", "not", "none"]) asked.delete(negation);
  // A word a shown column already holds is answered by the page as it is: a field that repeats
  // it (`can_return` names the items the `items` column shows) would keep only its rows and leave
  // out rows the word fits (set O: "kettle order" dropped the unpaid kettle order).
  const shownTable = firstTable(page.markdown.split("\n"));
  if (shownTable)
    for (const line of page.markdown.split("\n").slice(shownTable.head + 2, shownTable.end))
      for (const cell of cells(line)) for (const s of stems(cellValue(cell))) asked.delete(s);
  if (!asked.size) return null;
  // A value filter whose word shares a stem with a field's name: it may have said how, not which.
  const fieldStems = new Map(fields.map((f) => [f, stems(f.replace(/_/g, " "))]));
  const familyOf = (param: string) => {
    const [key = "", value = ""] = param.split("=");
    if (!Array.isArray(filters[key])) return [];
    const said = stems(decodeURIComponent(value).replace(/_/g, " "));
    return fields.filter((f) => [...(fieldStems.get(f) ?? [])].some((s) => said.has(s)));
  };
  const family = split(listing.withoutWords)
    .params.map(([k, v]) => `${k}=${v}`)
    .filter((p) => familyOf(p).length);
  const broad = reshaped(listing.withoutWords, [], new Set(family));
  // Probe the fields in batches; the word must be held by one field only.
  const holding: Array<{ field: string; rows: ReturnType<typeof rowsHolding> }> = [];
  for (let i = 0; i < Math.min(fields.length, PER_PROBE * PROBES); i += PER_PROBE) {
    const batch = fields.slice(i, i + PER_PROBE);
    const probe = await navigate(backend, reshaped(broad, batch));
    if (probe.outcome !== "applied") continue;
    for (const field of batch) {
      const rows = rowsHolding(probe, field, new Set(asked.keys()));
      if (rows.size) holding.push({ field, rows });
    }
  }
  const [only, other] = holding;
  if (!only || other) return null;
  const { field } = only;
  const held = new Set([...only.rows.values()].flatMap((r) => r.hits));
  const words = [...held].map((s) => asked.get(s) ?? s);
  // The family filter goes only where the word holds rows it left out.
  const shownIds = new Set((page.items ?? []).map((i) => i.id));
  const dropped = family.filter(
    (p) => familyOf(p).includes(field) && [...only.rows.keys()].some((id) => !shownIds.has(id)),
  );
  const base = reshaped(dropped.length ? broad : listing.withoutWords, [field]);
  const shaped = await navigate(backend, base);
  if (shaped.outcome !== "applied") return null;
  const leftover = listing.leftover
    .split(" ")
    .filter((w) => w && !words.includes(w.toLowerCase()))
    .join(" ");
  const droppedValues = dropped.map((p) => decodeURIComponent(p.split("=")[1] ?? ""));
  const next: NarrowedListing = {
    ...listing,
    uri: base,
    withoutWords: base,
    leftover,
    filtered: listing.filtered.filter((f) => !droppedValues.some((v) => f.endsWith(` = ${v}`))),
  };
  const value = words.map(code).join(", ");
  const read = droppedValues.length
    ? // Set BZ: "… rows hold other values of it too" left both players unsure which way it read.
      `${dropped.map((p) => `${code(decodeURIComponent(p.split("=")[1] ?? ""))} read as saying how (${value}), not as ${code(decodeURIComponent(p))}`).join(", ")}: every ${value} row is kept, whatever its ${dropped.map((p) => code(p.split("=")[0] ?? "")).join(", ")}.\n\n`
    : "";
  const complete = typeof shaped.total === "number" && shaped.rows === shaped.total;
  if (!complete)
    return {
      listing: next,
      page: shaped,
      said: `${read}${value} is a ${code(field)} value the system cannot filter by: column ${code(field)} added; rows on other pages are not narrowed (add \`?columns=${field}\` there).`,
    };
  const lines = shaped.markdown.split("\n");
  const table = firstTable(lines);
  const keep = rowsHolding(shaped, field, held);
  if (!table || !keep.size) return null;
  const body = lines.slice(table.head + 2, table.end);
  const keptLines = new Set([...keep.values()].map((r) => r.line));
  const kept = body.filter((l) => keptLines.has(l));
  const markdown = [...lines.slice(0, table.head + 2), ...kept, ...lines.slice(table.end)]
    .join("\n")
    .replace(
      /^Page (\d+) · (\d+) in all/m,
      (_all, n: string, total: string) =>
        `Page ${n} · ${kept.length} shown, ${Number(total) - kept.length} left out (not ${code(field)} ${value}) · ${total} in all`,
    );
  return {
    listing: next,
    page: {
      ...shaped,
      markdown,
      rows: kept.length,
      ...(shaped.items ? { items: shaped.items.filter((i) => keep.has(i.id)) } : {}),
    },
    said: `${read}Only rows with ${field.replace(/_/g, " ")} ${value}: ${kept.length} of ${shaped.total} (all on this page; the listing cannot filter by ${code(field)}).`,
  };
}
