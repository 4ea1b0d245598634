import { valueKeys } from "./choice-words";

/**
 * The row the nodes offer of the action's record itself (`{id: …, <field>: …}`), alone or in a
 * list, from the values chosen so far and the options the nodes offered.
 */
export function recordRowIn(
  field: string | undefined,
  values: Record<string, unknown>,
  options: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const record = field ? values[field] : undefined;
  if (!field || typeof record !== "string") return undefined;
  const keys = valueKeys(field);
  const rows = Object.values(options).flatMap((v) => (Array.isArray(v) ? v : [v]));
  return rows.find(
    (r): r is Record<string, unknown> =>
      !!r && typeof r === "object" && keys.some((k) => (r as Record<string, unknown>)[k] === record),
  );
}
