import type { Evaluation } from "./evaluate-action";

/** A field the action filled from its own default, with the other values its choices offered. */
export type Defaulted = { value: unknown; choices?: unknown[] };

/**
 * The fields this evaluation filled from a node's default — not from the user's words, not from
 * the agent's patch — each with the list of choices offered for it (`options.field_of` names the
 * list), so the answer can say "<field>: <value> (default; other choices: …)" and the agent can
 * ask the user. Round 4: a checkout summary showed a shipping method the user never named, and
 * nothing told the agent it was a default.
 */
export function defaultedFields(ev: Evaluation): Record<string, Defaulted> | undefined {
  const fieldOf = (ev.options.field_of ?? {}) as Record<string, string>;
  const out: Record<string, Defaulted> = {};
  for (const [field, value] of Object.entries(ev.defaulted)) {
    if (field in ev.fromWords) continue;
    const list = Object.entries(fieldOf).find(([k, f]) => f === field && Array.isArray(ev.options[k]))?.[0];
    out[field] = list ? { value, choices: ev.options[list] as unknown[] } : { value };
  }
  return Object.keys(out).length ? out : undefined;
}

/** `{ defaulted }` for an answer, or nothing when no default was applied. */
export function withDefaulted(ev: Evaluation): { defaulted?: Record<string, Defaulted> } {
  const defaulted = defaultedFields(ev);
  return defaulted ? { defaulted } : {};
}
