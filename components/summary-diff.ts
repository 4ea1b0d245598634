import { renderSummary, type SummaryRow } from "@/server/connectors/sdk/render-decision-summary";

export type SummaryChange = { key: string; label: string; before: string; after: string };

/**
 * What changed between the summary a person was looking at and the agent's newer one, in the
 * words the screen uses, row by row ("Quantity: 2 → 3"): the decision sentence first when it
 * changed, then every row (nested ones by their path) and the context facts.
 */
export function summaryDiff(beforeRaw: unknown, afterRaw: unknown): SummaryChange[] {
  const before = renderSummary(beforeRaw, "");
  const after = renderSummary(afterRaw, "");
  const out: SummaryChange[] = [];
  if (before.sentence !== after.sentence)
    out.push({
      key: "decision",
      label: "What happens",
      before: before.sentence ?? "—",
      after: after.sentence ?? "—",
    });
  if (before.headline?.text !== after.headline?.text)
    out.push({
      key: "headline",
      label: after.headline?.label ?? before.headline?.label ?? "Amount",
      before: before.headline?.text ?? "—",
      after: after.headline?.text ?? "—",
    });
  const compare = (a: SummaryRow[], b: SummaryRow[]) => {
    const was = new Map(withContext(a).map((r) => [r.path, r]));
    const now = new Map(withContext(b).map((r) => [r.path, r]));
    for (const path of new Set([...was.keys(), ...now.keys()])) {
      const x = was.get(path);
      const y = now.get(path);
      if (x?.text === y?.text && x) continue;
      if (x && y && !x.text && !y.text) continue;
      out.push({
        key: (y ?? x)?.top ?? path,
        label: (y ?? x)?.label ?? path,
        before: x ? x.text || "…" : "—",
        after: y ? y.text || "…" : "—",
      });
    }
  };
  compare(before.rows, after.rows);
  compare(before.now, after.now);
  return out;
}

/**
 * Rows labelled with the rows they sit under ("Items › #2 › Quantity"), so a change in a nested
 * row says which item changed, not only which field.
 */
function withContext(rows: readonly SummaryRow[]): SummaryRow[] {
  const heads: string[] = [];
  return rows.map((r, i) => {
    heads.length = Math.min(heads.length, r.depth);
    const label = [...heads, r.label].join(" › ");
    // A list item ("#2") is named by its first value (the product, the line) when it has one.
    const first = rows[i + 1];
    const named = /^#\d+$/.test(r.label) && !r.text && first?.depth === r.depth + 1 && first.text;
    heads.push(named ? first.text : r.label);
    return { ...r, label };
  });
}
