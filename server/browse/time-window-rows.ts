import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { isCreationKey } from "../connectors/sdk/when-text";
import { rowsRead } from "./amount-rows";
import { namedEventColumns } from "./event-time-columns";
import type { BrowsePage } from "./render-page";
import { sortFromWords } from "./sort-words";
import { cells, cellValue, firstTable } from "./table-cells";
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
  q: string,
): { name: string; added: boolean } | null {
  const table = firstTable(page.markdown.split("\n"));
  const shown = table?.names ?? [];
  const fields = [...shown, ...(page.moreColumns ?? []).filter((f) => !shown.includes(f))];
  // The window's own words name no event ("last" is no `last_login_at`).
  const named = namedEventColumns(window.event || q.toLowerCase().replace(window.phrase, " "), fields);
  const name =
    named.columns[0] ?? (window.event && !named.columns.length ? undefined : fields.find(isCreationKey));
  return name ? { name, added: !shown.includes(name) } : null;
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
  const goneIds = new Set(body.filter((l) => !kept.includes(l)).map((l) => cellValue(cells(l)[0] ?? "")));
  const whole = typeof full.total === "number" && full.rows === full.total;
  const count = kept.length ? `${kept.length} row${kept.length === 1 ? "" : "s"}` : "no row";
  const dayOnly = unsure.length
    ? ` ${unsure.length} of them show${unsure.length === 1 ? "s" : ""} only a day holding the bound: open ${unsure.length === 1 ? "it" : "them"} to tell.`
    : "";
  const markdown = [
    ...lines.slice(0, table.head),
    ...(kept.length ? [...lines.slice(table.head, table.head + 2), ...kept] : ["_(none)_"]),
    ...lines.slice(table.end),
  ]
    .join("\n")
    .replace(
      /^Page (\d+) · (?:\d+ shown · )?(\d+) in all/m,
      (_all, n: string, total: string) => `Page ${n} · ${kept.length} shown · ${total} in all`,
    );
  const line = `${eventLabel(column)} ${spelt} (${code(column)} ${boundsText(window)}; ${rowsRead(full, full.rows ?? body.length)}): ${count}; ${gone} left out.${dayOnly}`;
  return {
    page: {
      ...page,
      markdown,
      rows: kept.length,
      ...(page.items ? { items: page.items.filter((i) => !goneIds.has(i.id)) } : {}),
    },
    said: whole ? line : `${line} ${notWhole(full, route)}`,
  };
}

/**
 * What a window applied to one page of a longer listing leaves unsaid, and how to narrow: its
 * newest-first sort (the window's rows then come first) or filters, never the words' text.
 */
function notWhole(full: BrowsePage, route: RouteDefinition | undefined): string {
  const set = new URLSearchParams(full.uri.split("?")[1] ?? "");
  const newest = sortFromWords("newest", route?.filters).params.filter(
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
