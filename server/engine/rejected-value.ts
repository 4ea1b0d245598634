import { measureJson } from "./measure-json";

/**
 * Longest value (as JSON) that is kept as sent when it fails its field's schema: enough for any
 * typo'd id, amount or option, so the person and support see what was wrong.
 */
export const KEPT_REJECTED_CHARS = 200;

const NOT_KEPT = "signpost:rejected_value";

/**
 * What an action's state keeps of a value that failed its field's schema. A small one stays as
 * sent (it fails again, so the error stays until the field is fixed); a larger one is replaced
 * by a marker saying what it was, so refused input never fills the Action table. The marker is
 * not the value cut short: a cut value could pass the schema next time.
 */
export function keptRejectedValue(value: unknown): unknown {
  const { violation } = measureJson(value, { maxChars: KEPT_REJECTED_CHARS, maxDepth: 8 });
  if (!violation) return value;
  const what =
    typeof value === "string"
      ? `a string of ${value.length} characters`
      : Array.isArray(value)
        ? `an array of ${value.length} items`
        : value && typeof value === "object"
          ? `an object with ${Object.keys(value).length} keys`
          : `a ${typeof value}`;
  return { [NOT_KEPT]: `${what} that failed validation; not kept` };
}

/** True for the marker keptRejectedValue leaves in place of a value it did not keep. */
export function isRejectedValueMarker(value: unknown): boolean {
  return !!value && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, NOT_KEPT);
}
