/** The verbs a rule may name ("*": all of them). */
export const VERBS = ["search", "navigate", "submit", "start", "advance", "confirm", "script", "*"];
export type Agent = { id: string; name: string };
/** What the pattern language may name, from the server's registries (never a list of the component's own). */
export type PermissionGrammar = { schemes: string[]; capabilities: string[] };

export type RuleDraft = {
  subjectType: "agent" | "role" | "tenant";
  subjectId: string;
  verb: string;
  pattern: string;
  decision: "allow" | "deny" | "ask";
  note: string;
};
export const EMPTY_RULE: RuleDraft = {
  subjectType: "tenant",
  subjectId: "",
  verb: "submit",
  pattern: "",
  decision: "deny",
  note: "",
};

/** The rule as the console API takes it. */
export function toBody(d: RuleDraft) {
  return {
    subjectType: d.subjectType,
    subjectId: d.subjectType === "tenant" ? null : d.subjectId,
    verb: d.verb,
    pattern: d.pattern,
    decision: d.decision,
    note: d.note || null,
  };
}
