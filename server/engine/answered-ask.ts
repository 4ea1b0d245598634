import type { ActionState } from "./action-state";
import { choicesFor } from "./choice-words";

/**
 * The record the last answer told the agent to ask the user about (an `ambiguous_choice` on the
 * record's field, with the records to ask about as its options), sent now as one of those: the
 * user's answer, so it counts as named by them and is not asked about again. Set CJ: "the user's
 * words leave 1 order that can take this …; ask the user which one", then, once the agent sent
 * that order, "ask the user whether they mean ord_pending" — the same question twice.
 */
export function answeredAsk(
  field: string | undefined,
  patch: Record<string, unknown>,
  previous: Pick<ActionState, "validation_errors" | "options">,
): Record<string, string> {
  const sent = field ? patch[field] : undefined;
  if (!field || typeof sent !== "string") return {};
  // Only a record that ask named (review 65: an age tie's answer named two tickets while its
  // options still listed every ticket, and a third, never offered, ran at once).
  // Compared as whole tokens of the message: what the agent sent never becomes a pattern.
  const named = (message: string) => message.split(/[^\w-]+/).includes(sent);
  const asked = previous.validation_errors.some(
    (e) => e.field === field && e.code === "ambiguous_choice" && named(e.message),
  );
  if (!asked || !choicesFor(field, previous.options).some((r) => r.value === sent)) return {};
  return { [field]: sent };
}
