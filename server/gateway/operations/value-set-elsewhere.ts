import type { CapabilityHit } from "../../engine/capability-search";

/**
 * A value the words set ("… to express") that the best match takes in none of its inputs while
 * another match does (set CD: "change the shipping method of my unpaid order to express" was
 * answered "the first fits best: `change_delivery_address`", and both players opened the order
 * to learn that nothing changes an order's shipping method). Only a declared value of an input
 * (its schema's enum), only right after "to" or "into"; null where the best match takes it or
 * no other match does. The answer's words only: nothing is ranked or started differently.
 */
export function valueSetElsewhere(
  query: string,
  results: readonly Pick<CapabilityHit, "capability" | "input_values">[],
): { value: string; field: string; first: string; takes: string } | null {
  const [first, ...rest] = results;
  if (!first || !rest.length) return null;
  const set = [...query.toLowerCase().matchAll(/\b(?:to|into)\s+([a-z0-9_]+)/g)].map((m) => m[1] ?? "");
  const firstValues = new Set(Object.values(first.input_values ?? {}).flat());
  for (const value of set) {
    if (!value || firstValues.has(value)) continue;
    for (const other of rest)
      for (const [field, values] of Object.entries(other.input_values ?? {}))
        if (values.includes(value)) return { value, field, first: first.capability, takes: other.capability };
  }
  return null;
}
