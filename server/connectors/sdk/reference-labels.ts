/**
 * A column whose values are another record's ids (`assignee_id`, `team_id`, `customer_id`) shown
 * by that record's name with its id beside it: "Bella Billing (`tm_bella`)". Issue 23: a listing
 * showed `assignee_id tm_bella`, and "who is handling the refund ticket" cost the model a read of
 * the ticket's page for the name. The id stays, so the next call can still send it.
 */

/** The names a connector can give the ids of one column: id → name; null when it cannot say now. */
export type ReferenceNames = (ids: readonly string[]) => Promise<ReadonlyMap<string, string> | null>;

/** For each column a listing labels, its ids' names (referenceLabels reads them). */
export type ReferenceLabels = Readonly<Record<string, ReadonlyMap<string, string>>>;

/** A value a table cell shows as its label with the value beside it (render-helpers' `cell`). */
export interface LabelledValue {
  value: string;
  label: string;
}

/** Letters and digits only, lower-case: "Billing" names nothing more than `billing`. */
const bare = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The name, when it says more than the id itself (a team "Billing" with the id `billing` does not). */
function tellingName(id: string, name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  return trimmed && bare(trimmed) !== bare(id) ? trimmed : undefined;
}

/**
 * A row's value for a labelled column: `{value, label}` where its name says more, else as it was.
 * Pages draw it "Bella Billing (`tm_bella`)", the action face "Bella Billing (tm_bella)"; a
 * structured reader finds the id at `value`.
 */
export function labelledValue(value: unknown, names: ReadonlyMap<string, string> | undefined): unknown {
  if (!names || typeof value !== "string") return value;
  const label = tellingName(value, names.get(value));
  return label ? ({ value, label } satisfies LabelledValue) : value;
}

/** Whether a value is one `labelledValue` made (two string keys, `value` and `label`). */
export function isLabelledValue(value: unknown): value is LabelledValue {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  return Object.keys(o).length === 2 && typeof o.value === "string" && typeof o.label === "string";
}

/**
 * The names of the ids the shown rows hold in each declared column. A column's lookup is asked
 * only when some row holds an id there, and only for a column shown (the listing's own, or one
 * `?columns=` adds): a hidden reference costs the system no call. A lookup that fails or cannot
 * say leaves its column as ids.
 */
export async function referenceLabels(
  rows: readonly object[],
  shown: readonly string[],
  declared: Readonly<Record<string, ReferenceNames>>,
): Promise<ReferenceLabels> {
  const columns = [...new Set(shown)].filter((c) => Object.hasOwn(declared, c));
  const read = await Promise.all(
    columns.map(async (column) => {
      const ids = [
        ...new Set(
          rows
            .map((r) => (r as Record<string, unknown>)[column])
            .filter((v): v is string => typeof v === "string" && v !== ""),
        ),
      ];
      if (!ids.length) return null;
      const names = await (declared[column] as ReferenceNames)(ids).catch(() => null);
      return names?.size ? ([column, names] as const) : null;
    }),
  );
  return Object.fromEntries(read.filter((r) => r !== null));
}

/** The column names a listing's `?columns=` asks for, as sent (listPage checks them; this only picks lookups). */
export function askedColumnNames(columns: string | undefined): string[] {
  return (columns ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
}
