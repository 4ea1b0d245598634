import type { AnyCapability } from "../connectors/sdk/define-capability";
import { renderSummary } from "../connectors/sdk/render-decision-summary";

/**
 * What an applied effect did, in the words the person approved: the summary's decision sentence
 * ("Refund $7.00 to Visa •••• 4242", "Pay $55.00 from Store credit"), else its title (an imported
 * write's is the request: "POST /v1/refunds on Billing"), else the effect's own description. The
 * effect's description alone ("Submit the after-sales request") read as "a request was filed",
 * not that money moved (issue 23); the sentence is the capability's declared money fields, so
 * every capability that declares them says the amount, the direction and where.
 */
export function whatWasDone(capability: AnyCapability, summary: unknown): string {
  const fallback = capability.effect?.description ?? capability.title;
  if (!summary || typeof summary !== "object") return fallback;
  const r = renderSummary(summary, fallback);
  return r.sentence ?? r.title;
}
