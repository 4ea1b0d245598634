import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { requiredFields } from "./describe-inputs";
import { isRejectedValueMarker, keptRejectedValue } from "./rejected-value";

export interface Evaluation {
  /** Index of the node the action stops at; `nodes.length` when every node passed (read capabilities). */
  nodeIndex: number;
  node: string;
  atConfirmation: boolean;
  values: Values;
  derived: Record<string, unknown>;
  options: Record<string, unknown>;
  missing: string[];
  errors: ValidationError[];
  notFound?: { entity: string; id: string };
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

/**
 * Runs the capability's nodes in order over the values, in deterministic code that asks the
 * adapter, and stops at the first node that lacks input or fails validation, or at the
 * confirmation node. Nothing is written anywhere: callers decide what to persist.
 */
export async function evaluateAction(
  capability: AnyCapability,
  adapter: unknown,
  actor: Actor,
  input: Values,
): Promise<Evaluation> {
  const values: Values = { ...input };
  const derived: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  /** Where the evaluation stops: at node `i`, or past the last node ("DONE"). */
  const stopAt = (i: number, stop: Partial<Evaluation> = {}): Evaluation => ({
    nodeIndex: i,
    node: capability.nodes[i]?.id ?? "DONE",
    atConfirmation: false,
    values,
    derived,
    options,
    missing: [],
    ...stop,
    // A value for a later node is checked for its shape now (an unknown enum value, a malformed
    // id): it is an error today, not something left pending to fail two calls later.
    errors: [...(stop.errors ?? []), ...(stop.notFound ? [] : shapeErrorsAfter(capability, i, values))],
  });
  for (let i = 0; i < capability.nodes.length; i++) {
    const node = capability.nodes[i];
    if (!node) break;
    if (node.requiresConfirmation) return stopAt(i, { atConfirmation: true });
    const errors: ValidationError[] = [];
    const fields = node.fields ?? {};
    // Shape first: a field that fails its schema is not passed on to business validation.
    const checked: Values = { ...values };
    for (const [field, schema] of Object.entries(fields)) {
      if (!present(values[field])) {
        delete checked[field];
        continue;
      }
      // A value refused earlier and too large to keep: still refused until the field is sent again.
      if (isRejectedValueMarker(values[field])) {
        delete checked[field];
        errors.push({
          field,
          code: "invalid_value",
          message: `the ${field} sent earlier failed validation and was too large to keep; send ${field} again`,
        });
        continue;
      }
      const parsed = schema.safeParse(values[field]);
      if (parsed.success) {
        checked[field] = parsed.data;
        values[field] = parsed.data;
      } else {
        delete checked[field];
        // What failed is not kept at any size: the stored state holds a bounded copy.
        values[field] = keptRejectedValue(values[field]);
        const issue = parsed.error.issues[0];
        const path = issue?.path.length ? `${field}.${issue.path.join(".")}` : field;
        errors.push({ field: path, code: "invalid_value", message: issue?.message ?? "invalid value" });
      }
    }
    const result = node.resolve ? await node.resolve({ adapter, actor, values: checked, derived }) : {};
    if (result.notFound) return stopAt(i, { notFound: result.notFound });
    Object.assign(options, result.options ?? {});
    Object.assign(derived, result.derived ?? {});
    for (const [field, value] of Object.entries(result.defaults ?? {}))
      if (!present(values[field])) values[field] = value;
    // A field the node rejected on business grounds does not stay as if it were accepted.
    errors.push(...(result.errors ?? []));
    const missing = (result.required ?? requiredFields(node)).filter(
      (f) => !present(values[f]) && !errors.some((e) => e.field.split(".")[0] === f),
    );
    if (errors.length || missing.length) return stopAt(i, { missing, errors });
  }
  return stopAt(capability.nodes.length);
}

/** Shape errors of the values sent for nodes after `index` (their business checks wait). */
function shapeErrorsAfter(capability: AnyCapability, index: number, values: Values): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const node of capability.nodes.slice(index + 1))
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      const value = values[field];
      if (!present(value) || isRejectedValueMarker(value)) continue;
      const parsed = schema.safeParse(value);
      if (parsed.success) continue;
      values[field] = keptRejectedValue(value);
      const issue = parsed.error.issues[0];
      const path = issue?.path.length ? `${field}.${issue.path.join(".")}` : field;
      errors.push({ field: path, code: "invalid_value", message: issue?.message ?? "invalid value" });
    }
  return errors;
}
