import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { isCreationKey } from "../connectors/sdk/when-text";
import { rowsRead } from "./amount-rows";
import { namedEventColumns } from "./event-time-columns";
import type { BrowsePage } from "./render-page";
import { sortFromWords } from "./sort-words";
import { cells, cellValue, firstTable, withKeptRows } from "./table-cells";
import { boundsText, inWindow, type TimeWindow } from "./time-window-words";

/** Filters a line names to narrow a listing by, at most. */
const FILTERS_NAMED = 4;

const DAY = 24 * 60 * 60_000;

/**
 * The time column a window compares, among a listing's table columns and the fields it can add
 * (`moreColumns`): the one whose event the words name ("updated in the last day" →
 * `updated_at`, "opened" → `created_at`), else the record's creation. `added`: not in the table,
 * to be asked for with `?columns=`. Null when the listing shows no such time.
 */
export function windowColumn(
  page: BrowsePage,
  window: TimeWindow,
  _q: string,
): { name: string; added: boolean } | null {
  const table = firstTable(page.markdown.split("\n"));
  const shown = table?.names ?? [];
  const fields = [...shown, ...(page.moreColumns ?? []).filter((f) => !shown.includes(f))];
  // Only the participle right before the window names its event ("shipped in the last week"):
  // a verb elsewhere in the words ("orders that haven't shipped, in the last week" read
  // `shipped_at` from the whole query) is no column of the window's.
  const named = window.event ? namedEventColumns(window.event, fields) : { columns: [] };
  const name =
    named.columns[0] ?? (window.event && !named.columns.length ? undefined : fields.find(isCreationKey));
  return name ? { name, added: !shown.includes(name) } : null;
}

/** The window holding the moments outside a one-bound window, or null for a two-bound one. */
function outside(window: TimeWindow): TimeWindow | null {
  const { since, before, ...rest } = window;
  if (since !== undefined && before === undefined) return { ...rest, before: since };
  if (before !== undefined && since === undefined) return { ...rest, since: before };
  return null;
}

/**
 * The moments a cell may hold: a time to the minute in UTC (`2026-12-03 04:12 UTC`, an ISO
 * time with its zone) is one moment; a date alone is its whole UTC day; anything else none.
 */
function cellMoments(cell: string): { from: number; to: number } | null {
  const value = cellValue(cell);
  const m = /(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d)(?::\d\d(?:\.\d+)?)?\s*(UTC|Z)?)?/.exec(value);
  if (!m?.[1]) return null;
  if (m[2] && m[3]) {
    const at = Date.parse(`${m[1]}T${m[2]}:00Z`);
    return Number.isNaN(at) ? null : { from: at, to: at };
  }
  const day = Date.parse(`${m[1]}T00:00:00Z`);
  return Number.isNaN(day) ? null : { from: day, to: day + DAY - 1 };
}

/** "Created", "Updated": what a time column times, from its name's first word. */
function eventLabel(column: string): string {
  const first = column.replace(/([a-z])([A-Z])/g, "$1_$2").split(/[_.\s-]+/)[0] ?? column;
  return `${first[0]?.toUpperCase() ?? ""}${first.slice(1).toLowerCase()}`;
}

/**
 * The page with only the rows whose time column falls in the window the words set ("opened in
 * the last 3 days" → `created_at` since 2026-12-03 04:12 UTC), said in one line with the bound
 * exactly; the rows show their times to the minute (exact-times.ts), so a row near the bound is
 * decidable from its cell. `full` is the listing as read (time-window reads take its fullest
 * page): where it is not every row, the line says the window covered only the rows read and how
 * to narrow. A cell showing only its day, that day holding the bound, is kept and said so.
 */
export function timeWindowRows(
  page: BrowsePage,
  full: BrowsePage,
  window: TimeWindow,
  column: string | null,
  route: RouteDefinition | undefined,
): { page: BrowsePage; said: string } {
  const spelt = /^(last|past)\b/.test(window.phrase) ? `in the ${window.phrase}` : window.phrase;
  if (page.outcome !== "applied") return { page, said: "" };
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  const at = table && column ? table.names.indexOf(column) : -1;
  if (!table || !column || at < 0)
    return {
      page,
      said: `${code(spelt)}: not applied (this listing shows no ${window.event ? `time the records were ${window.event}` : "time the records were created"}).`,
    };
  // A denied window ("not opened in the last 3 days") keeps the rows outside it: on the
  // record's creation that is the other side of its one bound. On another event ("haven't
  // shipped this week") a row outside the window may still be one that shipped in it, or never
  // did: not applied, and said so, rather than a count that is not the answer.
  if (window.negated) {
    const other = outside(window);
    if (!other || !isCreationKey(column))
      return {
        page,
        said: `${code(spelt)}: not applied (the words deny it${window.event ? ` with ${code(window.event)}` : ""}, and ${code(column)} alone cannot tell which rows were not ${window.event || "created"} ${spelt}).`,
      };
    return timeWindowRows(page, full, { ...other, negated: false, phrase: `not ${spelt}` }, column, route);
  }
  const body = lines.slice(table.head + 2, table.end);
  const unsure: string[] = [];
  const kept = body.filter((l) => {
    const when = cellMoments(cells(l)[at] ?? "");
    if (!when) return false;
    const from = inWindow(when.from, window);
    if (from === inWindow(when.to, window)) return from;
    unsure.push(l);
    return true;
  });
  const gone = body.length - kept.length;
  const whole = typeof full.total === "number" && full.rows === full.total;
  const count = kept.length ? `${kept.length} row${kept.length === 1 ? "" : "s"}` : "no row";
  const dayOnly = unsure.length
    ? ` ${unsure.length} of them show${unsure.length === 1 ? "s" : ""} only a day holding the bound: open ${unsure.length === 1 ? "it" : "them"} to tell.`
    : "";
  // The page size asked for is not always the one shown (an imported listing shows at most its
  // own number of an answer's rows): the rows read are the ones the page shows, and a next-page
  // link sized by the ask would skip the rows between (issue 23 review: 20 shown of 50, then
  // page=2&per_page=50).
  const read = body.length;
  const asked = Number(new URLSearchParams(full.uri.split("?")[1] ?? "").get("per_page") ?? 0);
  const short = asked > read;
  const nextLink = /\s*·\s*\[Next page\]\(([^)\s]+)\)/;
  const skipping = short ? nextLink.exec(full.markdown)?.[1] : undefined;
  const cut = withKeptRows(page, table, kept);
  const markdown = cut.markdown
    .replace(skipping ? nextLink : /$^/, "")
    .replace(
      /^(Page \d+ · )?\d+ shown(?: of (\d+) in this answer)?(?=$| · (?!\d+ in all))/m,
      (_all, at: string | undefined, answer: string | undefined) =>
        `${at ?? ""}${kept.length} shown of ${read} read${answer ? ` (${answer} in the API's answer)` : ""}`,
    );
  const skipped = skipping
    ? ` The page shows ${read} of the ${asked} rows asked for (${code(`per_page=${asked}`)}), so its next-page link would skip rows: left out; read on with ${code(`per_page=${read}`)} and ${code("page=2")}.`
    : "";
  const said = /^not /.test(spelt)
    ? `Not ${eventLabel(column).toLowerCase()} ${spelt.slice(4)}`
    : `${eventLabel(column)} ${spelt}`;
  const line = `${said} (${code(column)} ${boundsText(window)}; ${rowsRead(full, read)}): ${count}; ${gone} left out.${dayOnly}${skipped}`;
  return {
    page: {
      ...cut,
      markdown,
      ...(skipping ? { links: cut.links.filter((l) => l !== skipping) } : {}),
    },
    said: whole ? line : `${line} ${notWhole(full, route, isCreationKey(column))}`,
  };
}

/**
 * What a window applied to one page of a longer listing leaves unsaid, and how to narrow: its
 * newest-first sort (the window's rows then come first) or filters, never the words' text.
 */
function notWhole(full: BrowsePage, route: RouteDefinition | undefined, created: boolean): string {
  const set = new URLSearchParams(full.uri.split("?")[1] ?? "");
  // A newest-first sort orders rows by their creation: it brings a window on another time
  // (`updated_at`) no nearer.
  const newest = (created ? sortFromWords("newest", route?.filters).params : []).filter(
    (p) => !set.has(p.split("=")[0] ?? ""),
  );
  const others = Object.entries(route?.filters ?? {})
    .filter(([key, v]) => Array.isArray(v) && !set.has(key) && !/^(sort|order)/i.test(key))
    .slice(0, FILTERS_NAMED)
    .map(([key]) => code(`?${key}=`));
  const ways = [
    ...(newest.length
      ? [`read it newest first (${newest.map(code).join(" ")}) until a row is older than the bound`]
      : []),
    ...(others.length ? [`narrow it by ${others.join(", ")}`] : []),
  ];
  return `The window could not be applied to the rows on other pages${ways.length ? `: ${ways.join(", or ")}` : ""}.`;
}
