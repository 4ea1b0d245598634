import type { OutcomeBase, ValidationError } from "../connectors/sdk/outcome";
import { type JsonLimits, jsonPathField, measureJson } from "../engine/measure-json";

/**
 * The shape every tool's arguments must keep before any schema looks at them. No input schema
 * comes near these (the deepest is about 5 levels; the largest a few kilobytes), so they only
 * refuse what would otherwise cost the server: a stack overflow in a recursive walker
 * (JSON.stringify, redaction), seconds of validation, megabytes of error text, or a row of
 * that size. The MCP HTTP face reads at most 4 MiB of body before any of this.
 *
 * - depth 32: ample for any real argument, far below where recursion in V8 overflows;
 * - strings 32,768 characters: half an action's stored state (64 KB), longer than any field;
 * - keys 256 characters; 100 keys per object (each unknown key can become a line of error
 *   text; a patch names a few fields, a form at most 30); 1,000 items per array; 10,000 values;
 * - 256 KB of JSON in all.
 */
export const ARGUMENT_LIMITS = {
  maxDepth: 32,
  maxStringChars: 32_768,
  maxKeyChars: 256,
  maxKeys: 100,
  maxItems: 1_000,
  maxValues: 10_000,
  maxChars: 256 * 1024,
} as const satisfies JsonLimits;

/**
 * The bound arguments break, as `validation_errors` naming the field (`patch.items`); empty when
 * they hold. Cheap on any input: the walk stops at the first bound broken.
 */
export function argumentBoundsErrors(args: unknown): ValidationError[] {
  const { violation } = measureJson(args, ARGUMENT_LIMITS);
  return violation
    ? [{ field: jsonPathField(violation.path), code: violation.code, message: violation.message }]
    : [];
}

/** Nesting an audit copy keeps; the audit writer's own bound (6) is below it. */
const AUDIT_COPY_DEPTH = 8;

/**
 * What an audit row gets of arguments refused for their size: the same value with nesting past
 * AUDIT_COPY_DEPTH levels replaced by `[…]`, made without recursion past that. Redaction and the
 * audit writer walk recursively, so they must never see the 20,000-deep original; strings and
 * entries they cut themselves (with the true counts), and the transports bound their total.
 */
export function auditCopyOfOversized(value: unknown, depth = 0): unknown {
  if (!value || typeof value !== "object") return value;
  if (depth >= AUDIT_COPY_DEPTH) return "[…]";
  if (Array.isArray(value)) return value.map((item) => auditCopyOfOversized(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = auditCopyOfOversized(item, depth + 1);
  return out;
}

/** The typed refusal of arguments out of bounds: the same shape as any invalid_arguments. */
export function outOfBoundsOutcome(errors: ValidationError[]): OutcomeBase & Record<string, unknown> {
  return {
    outcome: "rejected",
    reason: "invalid_arguments",
    message: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
    retryable: false,
    validation_errors: errors,
    next_actions: [],
  };
}
