import { renderSummary } from "../connectors/sdk/render-decision-summary";

/**
 * What a person decides, in one sentence from the summary's typed decision: "Pay $55.00 from
 * Store credit", "Refund $20.00 to Visa •••• 4242", "Assign ticket T-1 to Bob". The confirm
 * screen's heading, the MCP App, the browser notification and the email all say it; null when
 * the capability names no decision.
 */
export function decisionSentence(summary: unknown): string | null {
  return renderSummary(summary, "").sentence;
}
