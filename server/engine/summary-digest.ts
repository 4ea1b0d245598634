import { createHash } from "node:crypto";
import { SHOWN_KEY } from "../connectors/sdk/decision-summary";

/** JSON with object keys sorted, so equal summaries always produce the same digest. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Facts a summary shows for context as they stand now (`summary.now`: a balance before and
 * after). They are not what the person approves, so they stay out of the digest: a balance
 * that moved since (another charge, a refund) neither voids the approval nor blocks a retry
 * with the original key; the capability's own checks (enough balance) run again at confirm.
 */
export const SUMMARY_CONTEXT_KEY = "now";

/** The digest an approval is bound to: any change to what the person approves changes it. */
export function summaryDigest(summary: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(withoutContext(summary)))
    .digest("hex");
}

/** The summary without its context facts: the facts' own and the typed parts' (`shown.now`). */
function withoutContext(summary: unknown): unknown {
  if (!summary || typeof summary !== "object" || Array.isArray(summary)) return summary;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(summary)) {
    if (k === SUMMARY_CONTEXT_KEY) continue;
    out[k] =
      k === SHOWN_KEY && v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).filter(([kk]) => kk !== SUMMARY_CONTEXT_KEY))
        : v;
  }
  return out;
}
