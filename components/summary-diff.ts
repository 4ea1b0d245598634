import { decisionSentence } from "@/server/engine/decision-sentence";
import { SUMMARY_CONTEXT_KEY } from "@/server/engine/summary-digest";
import { displayText, summaryLabel } from "./confirmation-summary";

export type SummaryChange = { key: string; label: string; before: string; after: string };

const SKIP = new Set(["title", "decision", "amount_label", "currency"]);

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * What changed between the summary a person was looking at and the agent's newer one, in the
 * words the screen uses ("Items: Signpost Mug × 2 → Signpost Mug × 3"). The decision sentence
 * comes first when it changed; context facts (a balance) are compared too.
 */
export function summaryDiff(beforeRaw: unknown, afterRaw: unknown): SummaryChange[] {
  const before = record(beforeRaw);
  const after = record(afterRaw);
  const out: SummaryChange[] = [];
  const sBefore = decisionSentence(before);
  const sAfter = decisionSentence(after);
  if (sBefore !== sAfter)
    out.push({ key: "decision", label: "What happens", before: sBefore ?? "—", after: sAfter ?? "—" });
  const compare = (
    a: Record<string, unknown>,
    b: Record<string, unknown>,
    currencyA: unknown,
    currencyB: unknown,
  ) => {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      if (SKIP.has(key) || key === SUMMARY_CONTEXT_KEY || key.startsWith("_")) continue;
      const was = key in a ? displayText(key, a[key], currencyA) : "—";
      const now = key in b ? displayText(key, b[key], currencyB) : "—";
      if (was !== now) out.push({ key, label: summaryLabel(key), before: was, after: now });
    }
  };
  compare(before, after, before.currency, after.currency);
  compare(
    record(before[SUMMARY_CONTEXT_KEY]),
    record(after[SUMMARY_CONTEXT_KEY]),
    before.currency,
    after.currency,
  );
  return out;
}
