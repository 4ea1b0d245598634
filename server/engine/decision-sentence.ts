import { z } from "zod";

/**
 * What a person decides, in a capability's summary under `decision`: the verb and, for money,
 * the amount and where it comes from or goes to. The confirm screen's heading and button, the
 * MCP App, the browser notification and the email all say the same sentence built from it:
 * "Pay $55.00 from Store credit", "Refund $20.00 to Visa •••• 4242", "Assign ticket T-1 to Bob".
 * Connectors fill it in (they know what the money is); nothing above them needs to.
 */
export const summaryDecisionSchema = z.object({
  /** The verb on the button: "Pay", "Refund", "Assign". */
  verb: z.string().min(1).max(40),
  /** Integer minor units (cents). */
  amount: z.number().int().optional(),
  currency: z.string().length(3).optional(),
  /** Where the money comes from ("Store credit"). */
  from: z.string().max(120).optional(),
  /** Where the money or the thing goes ("Visa •••• 4242", "Bob (billing)"). */
  to: z.string().max(120).optional(),
  /** What the verb acts on when it is not money ("ticket T-1"). */
  object: z.string().max(200).optional(),
});
export type SummaryDecision = z.infer<typeof summaryDecisionSchema>;

/** Money in the legacy systems is integer minor units (cents). */
export function formatMoney(cents: unknown, currency: unknown = "USD"): string {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return String(cents);
  const code = typeof currency === "string" && /^[A-Z]{3}$/.test(currency) ? currency : "USD";
  return new Intl.NumberFormat("en-US", { style: "currency", currency: code }).format(cents / 100);
}

/** The summary's decision, when it has a valid one. */
export function summaryDecision(summary: unknown): SummaryDecision | null {
  if (!summary || typeof summary !== "object") return null;
  const parsed = summaryDecisionSchema.safeParse((summary as Record<string, unknown>).decision);
  return parsed.success ? parsed.data : null;
}

/** "Pay $55.00 from Store credit"; null when the summary names no decision. */
export function decisionSentence(summary: unknown): string | null {
  const d = summaryDecision(summary);
  if (!d) return null;
  const currency = d.currency ?? (summary as { currency?: unknown }).currency;
  const parts = [d.verb];
  if (d.object) parts.push(d.object);
  if (d.amount !== undefined) parts.push(formatMoney(d.amount, currency));
  if (d.from) parts.push(`from ${d.from}`);
  if (d.to) parts.push(`to ${d.to}`);
  return parts.join(" ");
}
