import { type OrderKey, orderedRows } from "../connectors/sdk/ordered-rows";
import { type ChoiceRow, rowAge, rowOf, saysAll } from "./choice-words";

/**
 * A list of records as the user's age words ask for it ("the oldest open shipping ticket"): only
 * the rows the describing words fit (open, shipping) when some do, the others counted as left
 * out; those that can take the change first, then by creation time, the asked end first. The
 * heading says exactly that, built from the same keys (orderedRows), so it cannot say an order
 * the rows are not in. Played (issue 23): "those that are open shipping and can take it first"
 * headed a list whose first row was a closed ticket. `only` says which rows were kept; `says`
 * the order, "" when no key moved a row (the list keeps its own order, and its own heading).
 * Undefined when a row carries no time. A list of choices only (the words named no one record):
 * the record they do name is picked by age alone (choice-words.ts `ageInWords`), never from here.
 */
export function byAge(
  list: unknown[],
  end: "oldest" | "newest",
  described: readonly string[],
): { rows: unknown[]; only: string; says: string } | undefined {
  const rows = list.map((r) =>
    r && typeof r === "object" && !Array.isArray(r)
      ? rowOf(String((r as Record<string, unknown>).id ?? ""), r as Record<string, unknown>)
      : undefined,
  );
  if (!rows.length || rows.some((r) => !r || !rowAge(r))) return undefined;
  const all = rows as ChoiceRow[];
  const fitting = described.length ? all.filter((r) => saysAll(r, described)) : all;
  const kept = fitting.length ? fitting : all;
  const left = all.length - kept.length;
  const able = (r: ChoiceRow) => (r.row.possible === undefined || r.row.possible === "yes" ? 0 : 1);
  const dir = end === "newest" ? -1 : 1;
  const keys: OrderKey<ChoiceRow>[] = [
    { says: "those that can take it first", compare: (a, b) => able(a) - able(b) },
    {
      says: `${end} first by creation`,
      compare: (a, b) => dir * String(rowAge(a)).localeCompare(String(rowAge(b))),
    },
  ];
  const ordered = orderedRows(kept, keys);
  const only = left
    ? `only the ${described.join(" ")} ones (${left} other${left === 1 ? "" : "s"} left out)`
    : "";
  return { rows: ordered.rows.map((r) => r.row), only, says: ordered.says };
}
