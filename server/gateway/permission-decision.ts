/**
 * What authorizing one call decided. Its own file: the trusted context carries a page's decision
 * (trusted-context.ts), and permissions.ts, which makes decisions, reads the context.
 */
export interface PermissionDecision {
  decision: "allow" | "deny" | "ask";
  /** What decided: a rule id, a one-time grant, or the defaults. */
  source: { kind: "rule"; ruleId: string } | { kind: "grant"; requestId: string } | { kind: "default" };
  /** The canonical target that was decided on (what a permission request must name). */
  target: string;
  message: string;
}
