import type { RouteDefinition } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import type { BrowsePage } from "./render-page";
import { words } from "./route-words";
import { stemmedWords } from "./stemmed-words";
import { cells, cellValue, firstTable } from "./table-cells";

/** Filters a line names to narrow a listing by, at most. */
const FILTERS_NAMED = 4;

/**
 * The opened listing without the rows holding a word the query denies that only text could match
 * ("<records> not about login"), said in one line. The text filter finds rows holding a word, never
 * rows without it: sent there, the word listed exactly the row meant not (issue 23). Only where the
 * listing is whole (`whole`: every row on this page, the system's total says so): the rows left are
 * then every other record. A row holds a word where its table line shows it, compared by stems
 * (stemmed-words.ts) or search's singular (`words()`), never as a pattern. A listing with more
 * pages is not cut; the line says so and which filters narrow it instead. `gone` counts the rows
 * left out, for the footer (left-out-rows.ts).
 */
export function withoutDeniedWords(
  page: BrowsePage,
  denied: readonly string[],
  whole: boolean,
  route: RouteDefinition | undefined,
): { page: BrowsePage; said: string; cut: { gone: number; denied: string } | null } {
  if (!denied.length || page.outcome !== "applied") return { page, said: "", cut: null };
  const said = denied.map((w) => code(`not ${w}`)).join(", ");
  const holding = denied.map(code).join(" or ");
  const lines = page.markdown.split("\n");
  const table = firstTable(lines);
  if (!whole) {
    const text = Object.entries(route?.filters ?? {}).find(([, v]) => v === "free text")?.[0];
    const why = text
      ? `its text filter ${code(text)} finds rows holding words, never rows without them`
      : "it has no text filter";
    const set = new URLSearchParams(page.uri.split("?")[1] ?? "");
    const others = Object.entries(route?.filters ?? {})
      .filter(([key, v]) => v !== "free text" && !set.has(key))
      .slice(0, FILTERS_NAMED)
      .map(([key]) => code(`?${key}=`));
    const instead = others.length
      ? `narrow it by ${others.join(", ")} until its rows fit one page, then search again`
      : "skip the rows holding it page by page";
    return {
      page,
      said: `${said}: not applied (the listing has more than one page, and ${why}): ${instead}.`,
      cut: null,
    };
  }
  if (!table) return { page, said: "", cut: null };
  // By stems, and by search's own singular ("invoices" → "invoice", which the stems read apart).
  const forms = (text: string) => [...stemmedWords(text).values(), ...words(text)];
  const asked = new Set(denied.flatMap(forms));
  const body = lines.slice(table.head + 2, table.end);
  const kept = body.filter((l) => !forms(l).some((s) => asked.has(s)));
  const gone = body.length - kept.length;
  if (!gone)
    return {
      page,
      said: `${said}: no row here holds ${holding}; the ${kept.length} shown are every row (all ${page.total} fit on this page).`,
      cut: null,
    };
  // The rows' own list (by id, the table's first cell) loses the same rows as the table.
  const goneIds = new Set(body.filter((l) => !kept.includes(l)).map((l) => cellValue(cells(l)[0] ?? "")));
  const markdown = [
    ...lines.slice(0, table.head),
    ...(kept.length ? [...lines.slice(table.head, table.head + 2), ...kept] : ["_(none)_"]),
    ...lines.slice(table.end),
  ].join("\n");
  return {
    page: {
      ...page,
      markdown,
      rows: (page.rows ?? body.length) - gone,
      ...(page.items ? { items: page.items.filter((i) => !goneIds.has(i.id)) } : {}),
    },
    said: `${said}: ${gone} row${gone === 1 ? "" : "s"} holding ${holding} left out here; the ${kept.length} shown are every other row (all ${page.total} fit on this page).`,
    cut: { gone, denied: said },
  };
}
