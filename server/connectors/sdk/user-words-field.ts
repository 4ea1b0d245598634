import type { BrowseBackend } from "./browse-backend";
import type { FormField } from "./markdown";

/** The form field that carries the user's request to a change's start (its `intent`). */
export const USER_WORDS = "user_words";

/** As long as start_action's own `intent` may be. */
const MAX_WORDS = 500;

/**
 * Whether a capability's form takes the user's words: a change whose policy lets it run without a
 * person (approval `never`, or a rule that depends on the request). There the words decide
 * whether submit runs it at once, as they decide it for start_action by words (issue 23: a form
 * without them always stopped at "ready to confirm", one confirm_action more than by words).
 * A change a person always approves gains nothing from them: their approval decides, so its
 * form does not show the field. Reads are answered at once anyway.
 */
export async function runsOnWords(backend: BrowseBackend, capabilityId: string): Promise<boolean> {
  const capability = (await backend.connectors())
    .flatMap((c) => c.capabilities)
    .find((c) => c.id === capabilityId);
  return !!capability && capability.policy.effect !== "read" && capability.policy.approval !== "always";
}

/** The field as every such form shows it: what to put there, and what it changes. */
export function userWordsField(value: unknown): FormField {
  return {
    name: USER_WORDS,
    type: "string",
    required: false,
    description:
      "the user's request, verbatim (never your words): if it names this record, or it is the only one, a change needing no approval runs on submit; else it waits for confirm_action",
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
