import type { Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import type { ActionState } from "./action-state";
import { measureJson } from "./measure-json";

/**
 * Largest stored state of one action, in characters of JSON (64 KB). The demo's largest state
 * (a checkout at its confirmation node: values, options, summary) is about 3 KB; this leaves
 * room for any real flow while one action can never hold megabytes of an agent's input.
 */
export const MAX_STATE_CHARS = 64 * 1024;

/** Deeper than any state a capability builds; past it, a value cannot be stored safely. */
const MAX_STATE_DEPTH = 64;

/**
 * Why `state` may not be stored, naming the patch field that grew it most; null when it fits.
 * Called before anything is written, so a patch that would overflow is refused whole.
 */
export function stateTooLarge(state: ActionState, patch: Values): ValidationError | null {
  const measured = measureJson(state, { maxChars: MAX_STATE_CHARS, maxDepth: MAX_STATE_DEPTH });
  if (!measured.violation) return null;
  let field = "patch";
  let largest = -1;
  for (const key of Object.keys(patch)) {
    const size = measureJson(state.values[key] ?? patch[key], {
      maxChars: MAX_STATE_CHARS,
      maxDepth: MAX_STATE_DEPTH,
    });
    const chars = size.violation ? Number.POSITIVE_INFINITY : size.chars;
    if (chars > largest) {
      largest = chars;
      field = key;
    }
  }
  return {
    field,
    code: "state_too_large",
    message:
      measured.violation.code === "too_deep"
        ? `${field} is nested too deeply to store in an action`
        : `the action would hold more than ${MAX_STATE_CHARS} characters of data with this ${field}; send a smaller value`,
  };
}
