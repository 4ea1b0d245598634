import type { ZodType } from "zod";
import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import type { ValidationError } from "../connectors/sdk/outcome";
import { type ChoiceRow, candidateText, choicesFor, matchSentWords, namedInWords } from "./choice-words";
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
  /** Fields whose value came from words (a label sent, or the user's request): field → value. */
  fromWords: Record<string, string>;
}

/** Words the evaluation may read beside the values: the user's request, at a start. */
export interface EvaluationWords {
  request?: string;
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
  words: EvaluationWords = {},
): Promise<Evaluation> {
  const values: Values = { ...input };
  const derived: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  const fromWords: Record<string, string> = {};
  /** Where the evaluation stops: at node `i`, or past the last node ("DONE"). */
  const stopAt = (i: number, stop: Partial<Evaluation> = {}): Evaluation => ({
    nodeIndex: i,
    node: capability.nodes[i]?.id ?? "DONE",
    atConfirmation: false,
    values,
    derived,
    options,
    missing: [],
    fromWords,
    ...stop,
    // A value for a later node is checked for its shape now (an unknown enum value, a malformed
    // id): it is an error today, not something left pending to fail two calls later.
    errors: [...(stop.errors ?? []), ...(stop.notFound ? [] : shapeErrorsAfter(capability, i, values))],
  });
  for (let i = 0; i < capability.nodes.length; i++) {
    const node = capability.nodes[i];
    if (!node) break;
    if (node.requiresConfirmation) return stopAt(i, { atConfirmation: true });
    // A node runs again (at most once per field) when words sent for one of its fields, or the
    // user's request, name one of the choices it offers: the choice's value is then the value.
    const tried = new Set<string>();
    const derivedBefore = { ...derived };
    for (;;) {
      const errors: ValidationError[] = [];
      const sent: Values = { ...values };
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
      const own = result.options ?? {};
      // Words sent for a field that failed: the choice they name, or the candidates they fit.
      const retry = wordsToChoices(fields, own, sent, errors.concat(result.errors ?? []), tried);
      if (retry.field && retry.value !== undefined) {
        values[retry.field] = retry.value;
        fromWords[retry.field] = retry.value;
        restore(derived, derivedBefore);
        continue;
      }
      if (result.notFound) return stopAt(i, { notFound: result.notFound });
      // How each list is ordered, from every node that offered one (one map, merged).
      const orderOf = {
        ...(options.order_of as object | undefined),
        ...(own.order_of as object | undefined),
      };
      Object.assign(options, own);
      if (Object.keys(orderOf).length) options.order_of = orderOf;
      Object.assign(derived, result.derived ?? {});
      for (const [field, value] of Object.entries(result.defaults ?? {}))
        if (!present(values[field])) values[field] = value;
      // A field the node rejected on business grounds does not stay as if it were accepted.
      errors.push(...(result.errors ?? []));
      const ambiguous = retry.ambiguous;
      if (ambiguous) {
        for (let e = errors.length - 1; e >= 0; e--)
          if (errors[e]?.field.split(".")[0] === ambiguous.field) errors.splice(e, 1);
        errors.push(ambiguous);
      }
      const missing = (result.required ?? requiredFields(node)).filter(
        (f) => !present(values[f]) && !errors.some((e) => e.field.split(".")[0] === f),
      );
      // A field still missing that the user's request names among this node's choices.
      const request = words.request;
      const named = request
        ? missing
            .filter((f) => !tried.has(f) && fields[f])
            .map((f) => ({ field: f, choice: nameInRequest(choicesFor(f, own, fields[f]), request) }))
            .find((n) => n.choice)
        : undefined;
      if (named?.choice) {
        tried.add(named.field);
        values[named.field] = named.choice.value;
        fromWords[named.field] = named.choice.value;
        restore(derived, derivedBefore);
        continue;
      }
      if (errors.length || missing.length) return stopAt(i, { missing, errors });
      break;
    }
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

function restore(target: Record<string, unknown>, before: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!(key in before)) delete target[key];
  Object.assign(target, before);
}

/**
 * The first field of a node whose value was refused and is words naming one of the node's
 * choices: that choice's value to run the node with, or (several fit) an error listing them.
 */
function wordsToChoices(
  fields: Record<string, ZodType>,
  options: Record<string, unknown>,
  sent: Values,
  errors: ValidationError[],
  tried: Set<string>,
): { field?: string; value?: string; ambiguous?: ValidationError } {
  for (const field of Object.keys(fields)) {
    const raw = sent[field];
    if (typeof raw !== "string" || tried.has(field)) continue;
    if (!errors.some((e) => e.field.split(".")[0] === field)) continue;
    tried.add(field);
    const match = matchSentWords(choicesFor(field, options, fields[field]), raw);
    if (match.kind === "one" && match.choice.value !== raw) return { field, value: match.choice.value };
    if (match.kind === "several")
      return {
        ambiguous: {
          field,
          code: "ambiguous_choice",
          message: `"${raw.slice(0, 60)}" fits ${match.choices.length}: ${match.choices
            .slice(0, 5)
            .map(candidateText)
            .join(", ")}; ask the user which one`,
        },
      };
  }
  return {};
}

/**
 * The row a request names, among the rows the node says are possible first ("the kettle order"
 * when only one kettle order can take the change), then among all (a named record that cannot
 * take it is then refused with its reason).
 */
function nameInRequest(rows: ChoiceRow[], request: string): ChoiceRow | undefined {
  const open = rows.filter((r) => r.row.possible === undefined || r.row.possible === "yes");
  return (open.length < rows.length ? namedInWords(open, request) : undefined) ?? namedInWords(rows, request);
}
