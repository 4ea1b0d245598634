import type { BrowseBackend } from "./browse-backend";
import type { FormField } from "./markdown";

/** The form field that carries the user's request to a change's start (its `intent`). */
export const USER_WORDS = "user_words";

/** As long as start_action's own `intent` may be. */
const MAX_WORDS = 500;

/**
 * What the user's words do on a capability's form: `runs` where the change may run without a
 * person (approval `never`, or a rule that depends on the request): the words then decide whether
 * submit runs it at once, as they decide it for start_action (issue 23: a form without them always
 * stopped at "ready to confirm"); `fills` where a person always approves: the words fill the fields
 * they name and the person's approval decides (set R: a model read the checkout form and searched
 * the catalogue for ids, two calls before a submit the words alone made); null for a read.
 */
export async function userWordsUse(
  backend: BrowseBackend,
  capabilityId: string,
): Promise<"runs" | "fills" | null> {
  const capability = (await backend.connectors())
    .flatMap((c) => c.capabilities)
    .find((c) => c.id === capabilityId);
  if (!capability || capability.policy.effect === "read") return null;
  return capability.policy.approval === "always" ? "fills" : "runs";
}

/** The field as every change's form shows it: what to put there, and what it changes. */
export function userWordsField(value: unknown, use: "runs" | "fills"): FormField {
  return {
    name: USER_WORDS,
    type: "string",
    required: false,
    description:
      use === "runs"
        ? "the user's request, verbatim (never your words); if it names this record, or it is the only one, a change needing no approval runs on submit; else it waits for confirm_action"
        : "the user's request, verbatim (never your words); a person approves before anything happens",
    value,
  };
}

/** What is wrong with a submitted value of the field, or null (absent and empty are fine). */
export function userWordsProblem(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return "the user's request as text";
  if (value.trim().length > MAX_WORDS) return `at most ${MAX_WORDS} characters`;
  return null;
}
