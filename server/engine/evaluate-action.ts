// stays-whole: the node evaluation loop and the rules it applies per node, read as one pass.

import type { ZodType } from "zod";
import type { Actor, AnyCapability, NodeInput, Values } from "../connectors/sdk/define-capability";
import { withoutDenied } from "../connectors/sdk/negated-words";
import type { ValidationError } from "../connectors/sdk/outcome";
import { REQUEST_NOTE } from "../connectors/sdk/request-note";
import { againstDirection } from "./against-direction";
import { byAge } from "./age-order";
import {
  AGE_WORDS,
  ageAsked,
  ageInWords,
  type ChoiceRow,
  candidateText,
  choicesFor,
  choicesOfValues,
  describedInWords,
  fieldOfLists,
  freeTextInWords,
  isFreeText,
  itemShapeOf,
  itemsInWords,
  matchSentWords,
  namedAlike,
  namedInWords,
  rowsCarrying,
  valueKeys,
  withLifecycle,
  wordTokens,
} from "./choice-words";
import { withClosedChoices } from "./closed-choice";
import { countInWords } from "./count-words";
import { requiredFields } from "./describe-inputs";
import { describedAnswer } from "./described-answer";
import { askPart, canTake, contradicts, deniedOf, describedRecords, says } from "./described-records";
import { askWithoutStatement, detailAsAsk } from "./detail-as-ask";
import { everyCovered, everyWhy } from "./every-described";
import { flagInWords } from "./flag-words";
import { givenToInWords } from "./given-to-words";
import { idListInWords } from "./id-list-words";
import { laterChoicesInWords } from "./later-choices";
import { namePhrase } from "./name-phrase";
import { paidChoice } from "./paid-choices";
import { partialLineInWords, partialLineSent } from "./partial-line-words";
import { present } from "./present-value";
import { pricedFieldInWords } from "./priced-field";
import { queryClauses } from "./query-clauses";
import { recordRowIn } from "./record-row";
import { isRejectedValueMarker, keptRejectedValue } from "./rejected-value";
import { takesRequestAsReason } from "./request-as-reason";
import { requestWords } from "./request-words";
import { fieldWordsOf, saidByWords } from "./said-by-words";
import { unusedFieldErrors } from "./unused-fields";
import { valueWordsOf } from "./value-words";
import { whereItStands, whyPicked } from "./why-picked";

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
  /** Fields a node filled from its default (nothing sent or said for them): field → value. */
  defaulted: Record<string, unknown>;
  /** How a defaulted field's value was chosen, from its schema ("the full refundable amount"). */
  defaultRules: Record<string, string>;
  /** The record field, when the words described the record: why it was picked, in a few words. */
  whyPicked: Record<string, string>;
  /** Reasons the user gave none for, filled with their request verbatim (request-as-reason.ts). */
  fromRequest: string[];
}

/** Words the evaluation may read beside the values: the user's request, at a start. */
export interface EvaluationWords {
  request?: string;
  /**
   * The evaluation of a start itself, whose values the agent sent beside the words: read against
   * them once (partial-line-words.ts); an advance, which reads the start's words again, never.
   */
  atStart?: boolean;
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
  createdByAgent?: NodeInput<unknown>["createdByAgent"],
): Promise<Evaluation> {
  const values: Values = { ...input };
  // What the agent sent at a start, beside the words (a node's own `input` below is another thing).
  const sentAtStart = words.atStart ? input : {};
  const derived: Record<string, unknown> = {};
  const options: Record<string, unknown> = {};
  const fromWords: Record<string, string> = {};
  const defaulted: Record<string, unknown> = {};
  const defaultRules: Record<string, string> = {};
  const why: Record<string, string> = {};
  const asRequest: string[] = [];
  // The record the user's age words name, whose own row said it cannot take the change: its
  // node's checks answer with the record taken; should none refuse it, that verdict does.
  let ageRefused: ValidationError | undefined;
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
    defaulted,
    defaultRules,
    whyPicked: why,
    fromRequest: asRequest,
    ...stop,
    // A value for a later node is checked for its shape now (an unknown enum value, a malformed
    // id): it is an error today, not something left pending to fail two calls later.
    errors: heldByVerdict(
      [...(stop.errors ?? []), ...(stop.notFound ? [] : shapeErrorsAfter(capability, i, values))],
      stop.notFound ? undefined : ageRefused,
    ),
  });
  // Every field of the flow: a list one step offers may fill a later step's field (an offer code).
  const allFields: Record<string, ZodType> = Object.assign(
    {},
    ...capability.nodes.map((n) => n.fields ?? {}),
  );
  for (let i = 0; i < capability.nodes.length; i++) {
    const node = capability.nodes[i];
    if (!node) break;
    if (node.requiresConfirmation) return stopAt(i, { atConfirmation: true });
    // A node runs again (at most once per field) when words sent for one of its fields, or the
    // user's request, name one of the choices it offers: the choice's value is then the value.
    const tried = new Set<string>();
    const derivedBefore = { ...derived };
    // A re-run shows only what the node offers with the value taken (the list it was taken from
    // is not shown again: from_words says what was taken).
    const optionsBefore = { ...options };
    // Defaults this node filled: taken back on a re-run, so they follow what the words added.
    const defaultedHere = new Set<string>();
    const rerun = () => {
      restore(derived, derivedBefore);
      restore(options, optionsBefore);
      for (const field of defaultedHere) {
        delete values[field];
        delete defaulted[field];
      }
      defaultedHere.clear();
    };
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
      const input = {
        adapter,
        actor,
        values: checked,
        derived,
        ...(createdByAgent ? { createdByAgent } : {}),
      };
      const result = node.resolve ? await node.resolve(input) : {};
      const own = result.options ?? {};
      // What the node offers, and (read once, only when words must be resolved) what it can look up.
      let looked: Record<string, unknown[]> | undefined;
      const lists = async () => {
        looked ??= node.lookup ? await node.lookup(input) : {};
        return { ...own, ...looked };
      };
      // Fields inside a field (an imported form's values): words sent, or the request, for them.
      const inner = result.inner
        ? innerWords(result.inner, sent, result.errors ?? [], words.request, tried)
        : undefined;
      if (inner) {
        values[inner.field] = inner.value;
        fromWords[inner.path] = inner.shown;
        rerun();
        continue;
      }
      // Words sent for a field that failed: the choice they name, or the candidates they fit.
      const retry = await wordsToChoices(
        capability,
        fields,
        own,
        lists,
        sent,
        errors.concat(result.errors ?? []),
        tried,
      );
      if (retry.field && retry.value !== undefined) {
        values[retry.field] = retry.value;
        fromWords[retry.field] = typeof retry.value === "string" ? retry.value : JSON.stringify(retry.value);
        rerun();
        continue;
      }
      if (result.notFound) return stopAt(i, { notFound: result.notFound });
      // How each list is ordered, from every node that offered one (one map, merged).
      const orderOf = {
        ...(options.order_of as object | undefined),
        ...(own.order_of as object | undefined),
      };
      Object.assign(options, own);
      // "The oldest open ticket" with no one oldest (two as old): the list is in that order.
      Object.assign(orderOf, byAgeAsked(options, own, words.request, capability.appliesTo.entity));
      if (Object.keys(orderOf).length) options.order_of = orderOf;
      // Which field each list fills (`available_offers` → offer_code): the answer names it.
      // The node's own fields first: rows keyed `id` fit any `x_id` field, and the people a later
      // step offers fill that step's own field, not the record field of the step before.
      const fieldOf = {
        ...(options.field_of as object | undefined),
        ...fieldOfLists(allFields, own),
        ...fieldOfLists(node.fields ?? {}, own),
      };
      if (Object.keys(fieldOf).length) options.field_of = fieldOf;
      Object.assign(derived, result.derived ?? {});
      // A field the node would default is the user's words' first: read after the default, the
      // words never had their say, and the answer called a kind the user asked for a default.
      const request = words.request;
      // A field's own schema default (`internal: false`) is a default like the node's: the user
      // did not choose it, so the answer and the person's screen say so (round 7: "Visible to:
      // shown to the customer" read as chosen).
      const defaults = { ...schemaDefaults(fields), ...(result.defaults ?? {}) };
      const toDefault = Object.keys(defaults).filter(
        (f) => !present(values[f]) && fields[f] && !tried.has(f),
      );
      const said =
        request && toDefault.length
          ? await fromRequest(fields, toDefault, own, lists, request, capability, givenTexts(values), options)
          : undefined;
      for (const f of toDefault) tried.add(f);
      if (said && "value" in said) {
        values[said.field] = said.value;
        fromWords[said.field] = said.shown;
        if (said.why) why[said.field] = said.why;
        rerun();
        continue;
      }
      // A default never stands in for a choice that changes the money moved (a shipping method
      // and its price): the user chooses it, so it is missing until named (paid-choices.ts).
      const paidMissing: string[] = [];
      for (const [field, value] of Object.entries(defaults))
        if (!present(values[field]) && !node.optInChoices?.includes(field)) {
          if (paidChoice(capability, field, options)) {
            paidMissing.push(field);
            continue;
          }
          values[field] = value;
          defaulted[field] = value;
          defaultedHere.add(field);
          // Round 25: "amount = $7.00" with no word of why read as a guess; it is the most refundable.
          const rule = defaultRule(fields[field]);
          if (rule) defaultRules[field] = rule;
        }
      for (const field of node.paidChoices ?? [])
        if (!present(values[field]) && !paidMissing.includes(field) && paidChoice(capability, field, options))
          paidMissing.push(field);
      // A field the node rejected on business grounds does not stay as if it were accepted.
      // The node's own word on a field is the one said: beside it, "kind X does not use it" sent
      // the agent to a value the node had just said cannot serve the user either.
      const ownErrors = result.errors ?? [];
      errors.push(
        ...withClosedChoices(capability, fields, own, values, ownErrors),
        ...unusedFieldErrors(node, checked).filter(
          (e) => !ownErrors.some((o) => (o.field.split(/[[.]/)[0] ?? o.field) === e.field),
        ),
      );
      const ambiguous = retry.ambiguous;
      if (ambiguous) {
        for (let e = errors.length - 1; e >= 0; e--)
          if (errors[e]?.field.split(".")[0] === ambiguous.field) errors.splice(e, 1);
        errors.push(ambiguous);
      }
      const missing = [...new Set([...(result.required ?? requiredFields(node)), ...paidMissing])].filter(
        (f) => !present(values[f]) && !errors.some((e) => e.field.split(".")[0] === f),
      );
      // A field still missing that the user's request names among this node's choices (a list
      // field: the entries it names), or a free-text field its words clearly give.
      const named = request
        ? await fromRequest(
            fields,
            missing.filter((f) => !tried.has(f) && fields[f]),
            own,
            lists,
            request,
            capability,
            [],
            options,
            values,
          )
        : undefined;
      if (named && "value" in named) {
        tried.add(named.field);
        values[named.field] = named.value;
        fromWords[named.field] = named.shown;
        if (named.why) why[named.field] = named.why;
        if (named.refused) ageRefused = named.refused;
        rerun();
        continue;
      }
      if (named && "ambiguous" in named) {
        errors.push(named.ambiguous);
        const at = missing.indexOf(named.ambiguous.field);
        if (at >= 0) missing.splice(at, 1);
        if (named.narrow) narrowOffer(options, own, named.ambiguous.field, named.narrow);
      }
      // A list the agent sent beside words that count fewer of one of its lines (partial-line-words.ts).
      // Its lookup is read only where the agent sent one of this node's lists (no I/O otherwise).
      const sentList = Object.keys(fields).some((f) => Array.isArray(sentAtStart[f]));
      const partSent =
        request && sentList
          ? partialLineSent(capability, fields, sentAtStart, { ...options, ...(await lists()) }, request)
          : undefined;
      if (partSent && !errors.some((e) => e.field.split(".")[0] === partSent.field)) errors.push(partSent);
      // A reason: their request, verbatim, said to be their own words on every surface (with or
      // without a why in it: asking "why?" costs the user a turn for a field the shop only keeps).
      const reason =
        request && !named
          ? missing.find(
              (f) => !tried.has(f) && fields[f] && takesRequestAsReason(capability, f, fields[f], own),
            )
          : undefined;
      if (request && reason) {
        tried.add(reason);
        const parsed = (fields[reason] as ZodType).safeParse(request.trim());
        if (parsed.success && typeof parsed.data === "string") {
          values[reason] = parsed.data;
          fromWords[reason] = `"${parsed.data}" (${REQUEST_NOTE})`;
          asRequest.push(reason);
          rerun();
          continue;
        }
      }
      // The record of an action a person approves, when the words speak of that kind of record and
      // exactly one of the user's is eligible ("pay my order that awaits payment"): that one, said
      // so in from_words; the person's approval still guards it. A change nobody approves is
      // left to the agent to ask (unnamed-record.ts).
      const only =
        request && !named ? onlyEligible(capability, fields, own, missing, request, tried) : undefined;
      if (only) {
        tried.add(only.field);
        values[only.field] = only.value;
        fromWords[only.field] =
          `${only.value} (the only eligible ${capability.appliesTo.entity.toLowerCase()})`;
        rerun();
        continue;
      }
      // An optional field whose choice the request names by its very value ("use SAVE5").
      const optional =
        request && !missing.length && !errors.length
          ? quotedChoice(fields, values, own, request, tried)
          : undefined;
      if (optional && "several" in optional) {
        tried.add(optional.field);
        return stopAt(i, {
          missing,
          errors: [
            {
              field: optional.field,
              code: "ambiguous_choice",
              message: `the words ask for one; ${optional.several.length} apply: ${optional.several
                .slice(0, 10)
                .map(candidateText)
                .join("; ")}. Send ${optional.field} (or null for none)`,
            },
          ],
        });
      }
      if (optional) {
        tried.add(optional.field);
        values[optional.field] = optional.value;
        fromWords[optional.field] = optional.value ?? "none (the user said none)";
        rerun();
        continue;
      }
      // A scaled value that moves the record against the words' way ("lower … to normal" on a low
      // ticket) is not taken: the user says which they mean (against-direction.ts).
      const against = request
        ? againstDirection(
            node,
            values,
            fromWords,
            sentAtStart,
            recordRowIn(capability.appliesTo.field, values, options),
            request,
          )
        : undefined;
      if (against && !errors.some((e) => e.field.split(".")[0] === against.field)) {
        delete values[against.field];
        delete fromWords[against.field];
        errors.push(against);
      }
      if (errors.length || missing.length) {
        // What the words already say for a later step goes in now, as an advance would send it.
        if (request)
          for (const [field, value] of Object.entries(
            laterChoicesInWords(capability, i, values, options, detailAsAsk(capability, request)),
          )) {
            values[field] = value;
            fromWords[field] = value;
          }
        return stopAt(i, { missing, errors });
      }
      break;
    }
  }
  return stopAt(capability.nodes.length);
}

function onlyEligible(
  capability: AnyCapability,
  fields: Record<string, ZodType>,
  options: Record<string, unknown>,
  missing: string[],
  request: string,
  tried: Set<string>,
): { field: string; value: string } | undefined {
  const field = capability.appliesTo.field;
  // A read changes nothing: the only record that can answer ("where is my parcel": the one on its
  // way) is read and named in from_words, whatever the words call it.
  const read = capability.policy.effect === "read";
  if (
    !field ||
    !missing.includes(field) ||
    tried.has(field) ||
    (capability.policy.approval === "never" && !read)
  )
    return;
  const entity = capability.appliesTo.entity.toLowerCase();
  const words = new Set(wordTokens(request));
  if (!read && !words.has(entity) && !words.has(`${entity}s`)) return;
  const rows = choicesFor(field, options, fields[field]);
  // "My oldest order" with two as old names neither: the only eligible one would stand in for it.
  const aged = ageInWords(rows, request, capability.appliesTo.entity);
  if (aged?.kind === "tie") return;
  // Only an explicit verdict counts: rows without one say nothing about eligibility.
  const eligible = rows.filter((r) => r.row.possible === "yes");
  if (eligible.length !== 1 || rows.some((r) => r.row.possible === undefined)) return;
  const only = eligible[0] as ChoiceRow;
  // Not where the words name another record, one that cannot answer: "My lamp order, has it
  // shipped yet?" read the order on its way (set AI review: the question's "shipped" contradicted
  // the lamp order, and the one shipped order answered for it).
  const named = namedInWords(rows, askPart(request, rows));
  if (named && named !== only) return;
  // Nor for the one the words name by age ("Where is my most recent order?" read the order on its
  // way where the newest has not shipped: review 53b).
  if (aged?.kind === "one" && aged.choice !== only) return;
  return { field, value: only.value };
}

/**
 * The first field inside `inner.field` that failed (a value sent that is words for one of its
 * choices: "Sold" → sold) or is required and missing (the request names one of its choices):
 * the field's new whole value with that choice in it. Each inner field is tried once.
 */
function innerWords(
  inner: { field: string; choices: Record<string, string[]> },
  sent: Values,
  errors: ValidationError[],
  request: string | undefined,
  tried: Set<string>,
): { field: string; value: Values; path: string; shown: string } | undefined {
  const current = (sent[inner.field] ?? {}) as Values;
  if (typeof current !== "object" || Array.isArray(current)) return undefined;
  for (const error of errors) {
    const [outer, name, ...rest] = error.field.split(".");
    const values = name ? inner.choices[name] : undefined;
    const path = `${outer}.${name}`;
    if (outer !== inner.field || !name || rest.length || !values?.length || tried.has(path)) continue;
    tried.add(path);
    const rows = choicesOfValues(values);
    const raw = current[name];
    let chosen: string | undefined;
    if (typeof raw === "string" && raw.trim()) {
      const match = matchSentWords(rows, raw);
      chosen = match.kind === "one" ? match.choice.value : undefined;
    } else if (raw === undefined && request) chosen = nameInRequest(rows, request)?.value;
    if (chosen !== undefined && chosen !== raw)
      return { field: inner.field, value: { ...current, [name]: chosen }, path, shown: chosen };
  }
  return undefined;
}

/**
 * The node's lists for `field` cut to the rows the user's words fit (`values`), each heading
 * saying how many of how many: the rest are no candidates, and re-reading them cost the model
 * most of the answer (issue 23: 8 orders listed for words two fit).
 */
function narrowOffer(
  options: Record<string, unknown>,
  own: Record<string, unknown>,
  field: string,
  values: string[],
): void {
  const fieldOf = (options.field_of ?? {}) as Record<string, string>;
  const orderOf = { ...(options.order_of as Record<string, string> | undefined) };
  const keep = new Set(values);
  let cut = false;
  for (const list of Object.keys(own)) {
    // The list as offered now (sorted as the words asked, if they did).
    const rows = options[list];
    if (fieldOf[list] !== field || !Array.isArray(rows)) continue;
    const key = valueKeys(field).find((k) =>
      rows.every((r) => r && typeof r === "object" && typeof (r as Record<string, unknown>)[k] === "string"),
    );
    if (!key) continue;
    const fit = rows.filter((r) => keep.has(String((r as Record<string, unknown>)[key])));
    if (!fit.length) continue;
    options[list] = fit;
    cut = true;
    const how = `only the ${fit.length} of ${rows.length} the user's words fit`;
    orderOf[list] = orderOf[list] ? `${orderOf[list]}; ${how}` : how;
  }
  if (cut) options.order_of = orderOf;
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
 * A list field (`lines: [{item_id, quantity}]`) has each refused entry's key read the same way.
 */
async function wordsToChoices(
  capability: AnyCapability,
  fields: Record<string, ZodType>,
  options: Record<string, unknown>,
  lists: () => Promise<Record<string, unknown>>,
  sent: Values,
  errors: ValidationError[],
  tried: Set<string>,
): Promise<{ field?: string; value?: unknown; ambiguous?: ValidationError }> {
  const ambiguous = (field: string, raw: string, choices: ChoiceRow[]): ValidationError => ({
    field,
    code: "ambiguous_choice",
    message: `"${raw.slice(0, 60)}" fits ${choices.length}: ${choices
      .slice(0, 5)
      .map(candidateText)
      .join(", ")}; ask the user which one`,
  });
  for (const [field, schema] of Object.entries(fields)) {
    const raw = sent[field];
    if (tried.has(field) || !errors.some((e) => e.field.split(".")[0] === field)) continue;
    const shape = itemShapeOf(schema);
    if (shape && Array.isArray(raw)) {
      tried.add(field);
      const refused = new Set(
        errors
          .map((e) => e.field.split("."))
          .filter((p) => p[0] === field && p[2] === shape.key)
          .map((p) => Number(p[1])),
      );
      if (!refused.size) continue;
      const rows = rowsCarrying(shape.key, await lists());
      const fixed = raw.map((entry) => (entry && typeof entry === "object" ? { ...entry } : entry));
      let changed = false;
      for (const index of refused) {
        const entry = fixed[index] as Record<string, unknown> | undefined;
        const words = entry?.[shape.key];
        if (!entry || typeof words !== "string") continue;
        const match = matchSentWords(rows, words);
        if (match.kind === "several")
          return { ambiguous: ambiguous(`${field}.${index}.${shape.key}`, words, match.choices) };
        if (match.kind === "one" && match.choice.value !== words) {
          entry[shape.key] = match.choice.value;
          changed = true;
        }
      }
      if (changed) return { field, value: fixed };
      continue;
    }
    if (typeof raw !== "string") continue;
    tried.add(field);
    const said = valueWordsOf(capability, field);
    const match = matchSentWords(choicesFor(field, { ...options, ...(await lists()) }, schema, said), raw);
    if (match.kind === "one" && match.choice.value !== raw) return { field, value: match.choice.value };
    if (match.kind === "several") return { ambiguous: ambiguous(field, raw, match.choices) };
  }
  return {};
}

/**
 * The first missing field the user's request fills: a choice it names (a label, a method, a
 * record), the entries of a list field it names ("2 Logo Tee L and a mug", "my cart"), or the
 * text it clearly gives a free-text field. Several equal candidates are an error naming them.
 */
async function fromRequest(
  fields: Record<string, ZodType>,
  missing: string[],
  options: Record<string, unknown>,
  lists: () => Promise<Record<string, unknown>>,
  request: string,
  capability: AnyCapability,
  given: string[] = [],
  known: Record<string, unknown> = {},
  chosen: Values = {},
): Promise<
  | { field: string; value: unknown; shown: string; why?: string; refused?: ValidationError }
  | { ambiguous: ValidationError; narrow?: string[] }
  | undefined
> {
  const record = capability.appliesTo;
  const entity = record.entity;
  const freeText = missing.filter((f) => fields[f] && isFreeText(f, fields[f] as ZodType, options));
  // The record's rows as the steps before offered them (`known`), to tell its name phrase by;
  // where none were offered (the record was sent), the phrase runs back to "the"/"every".
  const ownWords = async (recordField: string, text: string) => {
    const records = choicesFor(recordField, { ...known, ...options, ...(await lists()) });
    const noun = wordTokens(entity)[0] ?? "";
    return namePhrase(text, noun, (w) => records.length < 2 || records.some((r) => says(r, w))).rest;
  };
  for (const field of missing) {
    const schema = fields[field];
    if (!schema) continue;
    const shape = itemShapeOf(schema);
    if (shape) {
      const names = capability.nodes.find((n) => n.fields?.[field])?.listNames;
      const match = itemsInWords(rowsCarrying(shape.key, await lists(), names), shape, request);
      if (match.kind === "several")
        return {
          ambiguous: {
            field,
            code: "ambiguous_choice",
            message: `"${match.words.slice(0, 60)}" fits ${match.choices.length}: ${match.choices
              .slice(0, 5)
              .map(candidateText)
              .join(", ")}; ask the user which one`,
          },
        };
      if (match.kind === "items")
        return {
          field,
          value: match.items,
          ...(match.why ? { why: match.why } : {}),
          shown: match.shown,
        };
      continue;
    }
    // "Return the mugs from my kettle order": the lines a list-of-ids field's words name; "one of
    // the two mugs", where an id takes the whole line, is said at once and takes nothing.
    const lines = { ...options, ...(await lists()) };
    // "3 of them", "take it out": a declared count of the thing another field holds (count-words.ts).
    const count = countInWords(capability, field, detailAsAsk(capability, request), chosen, lines);
    if (count !== undefined && schema.safeParse(count).success)
      return { field, value: count, shown: String(count) };
    const partial = partialLineInWords(capability, field, schema, lines, request);
    if (partial) return { ambiguous: partial };
    const ids = idListInWords(field, schema, lines, request, entity);
    if (ids) return { field, value: ids, shown: ids.join(", ") };
    // A consequential field's declared words ("reply to the customer": internal false); words
    // naming two of its values take none, and a change nobody approves then waits for the user.
    const declared = fieldWordsOf(capability, field);
    const setting = declared ? saidByWords(declared, request, given) : undefined;
    if (setting && "value" in setting && schema.safeParse(setting.value).success)
      return { field, value: setting.value, shown: String(setting.value) };
    if (setting) continue;
    // "An internal note": a yes/no field its name's words set (flag-words.ts).
    const flag = flagInWords(field, schema, request, given);
    if (flag !== undefined) return { field, value: flag, shown: String(flag) };
    if (freeText.includes(field)) {
      const text = freeTextInWords(field, request, freeText.length === 1);
      const parsed = text === undefined ? undefined : schema.safeParse(text);
      if (parsed?.success && typeof parsed.data === "string")
        return { field, value: parsed.data, shown: `"${parsed.data}"` };
      continue;
    }
    // What each record went through, where its node declares the states they pass.
    const lifecycle = capability.nodes.find((n) => n.fields?.[field])?.lifecycle;
    // A list the answer names as another field's is never read as this one's choices: rows keyed
    // `id` fit any `x_id` field (set CZ: "the mug" set the replacement to the mug's order line).
    const offered = { ...options, ...(await lists()) };
    const owners = {
      ...fieldOfLists(fields, offered),
      ...(offered.field_of as object | undefined),
    } as Record<string, unknown>;
    const ownLists = Object.fromEntries(
      Object.entries(offered).filter(([list]) => typeof owners[list] !== "string" || owners[list] === field),
    );
    const rows = withLifecycle(
      choicesFor(field, ownLists, schema, valueWordsOf(capability, field)),
      lifecycle,
    );
    // The words naming the record ("every urgent ticket") describe it, never another field's new
    // value: issue 23 set the priority to "urgent" from them (name-phrase.ts).
    // Text the user quotes is content (a note's body, a resolution), never what names the record:
    // "assign it and add a note: 'check the headphones ticket'" ran both on that ticket (review 50).
    // The words after a colon fill the other fields where no field takes them as text
    // (detail-as-ask.ts); the record's name stays before it ("My lamp order: has it shipped?").
    const nameWords = field === record.field ? requestWords(request) : detailAsAsk(capability, request);
    const own = field === record.field || !record.field ? nameWords : await ownWords(record.field, nameWords);
    // "The oldest open shipping ticket" names one by its age, whatever else its words fit, and
    // whether or not it can take the change: that record is taken, and its checks say (issue 23:
    // a newer one that could was changed instead, with no approval asked).
    // An age said after the ask's colon is no description of the record ("…the lamp order: last
    // time it went to my home" named the newest order, review 53), nor where the words before it
    // name one ("Track my headphones order: latest one", review 53c); "Track my order: the latest
    // one" asks by age.
    const before = askPart(own, rows);
    const agedWords =
      field !== record.field ? own : namedInWords(rows, before) ? before : askWithoutStatement(own, false);
    const aged = ageInWords(rows, agedWords, entity, canTake(capability, rows, agedWords));
    // The record picked by a description says why (a record quoted by its id needs no reason).
    const picked = (choice: ChoiceRow, words: string[], age?: "oldest" | "newest") => ({
      field,
      value: choice.value,
      shown: choice.value,
      ...(field === record.field
        ? whyWithState(
            quotedIn(rows, nameWords) ? undefined : whyPicked(rows, choice, words, age),
            whereItStands(choice, lifecycle, nameWords, entity),
          )
        : {}),
    });
    if (aged?.kind === "one") {
      const [first = "", ...described] = aged.said.split(" ");
      const refused = aged.able
        ? undefined
        : describedAnswer(field, entity, { kind: "aged", said: aged.said, record: aged.choice }).ambiguous;
      return {
        ...picked(aged.choice, described.slice(0, -1), AGE_WORDS[first]),
        ...(refused ? { refused } : {}),
      };
    }
    if (aged?.kind === "none") return describedAnswer(field, entity, { kind: "aged", said: aged.said });
    // Two as old at the asked end: the words name no one record, so neither does any other
    // reading of them (the only one of the two that can take it, a younger one that fits): the
    // list, in the age's order, is for the user to pick from. A record quoted by its id still is.
    const named =
      aged?.kind === "tie"
        ? quotedIn(rows, nameWords)
        : field === record.field
          ? nameInRequest(rows, own, capability)
          : (nameInRequest(rows, withoutNoun(own, entity)) ??
            givenToInWords(
              rows,
              offeredValues(field, options, schema),
              withoutNoun(own, entity),
              recordRowIn(record.field, chosen, { ...known, ...options })?.[field],
            ));
    if (aged?.kind === "tie" && !named)
      return describedAnswer(field, entity, { kind: "aged", said: aged.said, tied: aged.tied });
    // "The cheapest shipping": a one-value choice the words name by its price, where they name
    // none by its own words ("the cheapest mug, express shipping" is express).
    const priced = named || field === record.field ? undefined : pricedFieldInWords(field, rows, nameWords);
    if (priced) return { field, value: priced.choice.value, shown: priced.choice.value, why: priced.why };
    if (named)
      return picked(
        named,
        [...named.tokens].filter((t) => wordTokens(nameWords).includes(t)),
      );
    // The record described by what it is, by words anywhere in the request: one that can take
    // the change is taken with why; several are listed to ask the user, never picked.
    // Words asking by age ("the oldest open ticket") with no one oldest keep the age's order.
    if (field === capability.appliesTo.field && !ageAsked(nameWords, entity)) {
      const found = describedRecords(capability, rows, nameWords);
      if (found?.kind === "one")
        return { ...picked(found.choice, found.words), ...(found.why ? { why: found.why } : {}) };
      // "Every unassigned open ticket": each one is named; this action takes the first, the answer the rest.
      const every = found?.kind === "several" ? everyCovered(capability, rows, nameWords, found) : undefined;
      if (found && every?.[0])
        return { ...picked(every[0], found.words), why: everyWhy(capability, every, nameWords) };
      if (found) return describedAnswer(field, entity, found);
      // Several that can take the change, named alike by the words ("my lamp order", two lamp
      // orders): those few are listed to ask the user, not every record (set AK: nine orders).
      const open = rows.filter(
        (r) => (r.row.possible === undefined || r.row.possible === "yes") && r.row.eligible !== false,
      );
      const asked = open.length > 2 ? askPart(own, open) : "";
      const alike = asked ? namedAlike(open, asked) : [];
      if (alike.length && alike.length < open.length)
        return describedAnswer(field, entity, {
          kind: "several",
          choices: alike,
          closed: [],
          words: [...new Set(alike.flatMap((r) => [...r.tokens]))].filter((t) =>
            wordTokens(asked).includes(t),
          ),
          unsaid: [],
          stated: true,
        });
    }
    const described = describedInWords(rows, own, entity);
    // The words before the record's name describe it; those after say what to do ("… to urgent").
    const said = wordTokens(nameWords);
    const noun = said.indexOf(wordTokens(entity)[0] ?? "");
    if (described) return picked(described, said.slice(0, Math.max(0, noun)));
  }
  return undefined;
}

/**
 * An optional field not yet given whose choice the request names by its exact value (an offer
 * code), or whose kind it asks for ("use an offer if one applies", the first word of
 * offer_code): the one such choice offered, or the several to list. "No offer" asks for none.
 */
function quotedChoice(
  fields: Record<string, ZodType>,
  values: Values,
  options: Record<string, unknown>,
  request: string,
  tried: Set<string>,
): { field: string; value: string | null } | { field: string; several: ChoiceRow[] } | undefined {
  const words = request.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [];
  const said = new Set(words);
  for (const [field, schema] of Object.entries(fields)) {
    if (present(values[field]) || tried.has(field) || values[field] === null) continue;
    const rows = choicesFor(field, options);
    const hits = rows.filter((r) => said.has(r.value.toLowerCase()));
    if (hits.length === 1 && hits[0] && schema.safeParse(hits[0].value).success)
      return { field, value: hits[0].value };
    const kind = kindSaid(words, field);
    if (hits.length || !kind) continue;
    // "No offer": none, by the user's word (the person's screen then offers none: review 55c).
    if (kind === "refused") return { field, value: null };
    const open = rows.filter((r) => r.row.possible !== "no" && schema.safeParse(r.value).success);
    if (open.length === 1 && open[0]) return { field, value: open[0].value };
    if (open.length > 1) return { field, several: open };
  }
  return undefined;
}

/** The values the node itself offers for a field (not those only its lookup knows). */
function offeredValues(field: string, options: Record<string, unknown>, schema: ZodType): Set<string> {
  return new Set(choicesFor(field, options, schema).map((r) => r.value));
}

/**
 * The words without the record's own noun, for choosing another field's value: "refund me the
 * shipping on my order" names the shipping refund, not "cancel and refund the whole order"
 * (set AR: the noun that names the record tied them, and the open one was taken).
 */
function withoutNoun(words: string, entity: string): string {
  const nouns = wordTokens(entity).filter((t) => /^\p{L}{3,}$/u.test(t));
  return nouns.length ? words.replace(new RegExp(`\\b(?:${nouns.join("|")})s?\\b`, "giu"), " ") : words;
}

const REFUSALS = new Set(["no", "not", "without", "don't", "dont", "never", "skip"]);

/** Whether the words ask for the field's kind (its name's first word: offer_code → offer), or refuse it ("no offer"). */
function kindSaid(words: string[], field: string): "asked" | "refused" | undefined {
  const kind = field.split("_")[0] ?? "";
  if (kind.length < 4) return undefined;
  const at = words.findIndex((w) => w === kind || w === `${kind}s`);
  if (at < 0) return undefined;
  return words.slice(Math.max(0, at - 3), at).some((w) => REFUSALS.has(w)) ? "refused" : "asked";
}

/**
 * The row a request names, among the rows the node says are possible first ("the kettle order"
 * when only one kettle order can take the change), then among all (a named record that cannot
 * take it is then refused with its reason).
 */
function nameInRequest(
  rows: ChoiceRow[],
  request: string,
  capability?: AnyCapability,
): ChoiceRow | undefined {
  // A row quoted by its very value ("tkt_1") is named, whatever other words happen to fit.
  const quoted = quotedIn(rows, request);
  if (quoted) return quoted;
  // A path the node marks not eligible is not open either: "money back" names the one refund a
  // delivered order still allows, not the one that ended at shipping (issue 23, set R).
  const open = rows.filter(
    (r) => (r.row.possible === undefined || r.row.possible === "yes") && r.row.eligible !== false,
  );
  // The detail after the ask's colon is a free-text value ("…: the customer got the parcel"),
  // never the record's name: it named the resolved "Parcel damaged" ticket.
  // Words the request denies ("not the lamp one") name nothing; a name it contradicts ("the tee
  // one that isn't delivered", and it is) is no name: the description answers instead.
  const asked = askPart(request, rows);
  const fitting = (row: ChoiceRow | undefined) =>
    row && !deniedOf(request, row, rows) && !(capability && contradicts(capability, rows, request, row))
      ? row
      : undefined;
  // An open row the words contradict is not named where another row fits them whole: "two Logo
  // Tees in size L" named the cart's size-M tee first, the words' size contradicted it, and the
  // size-L tee they name was never read (set AI).
  const first = open.length < rows.length ? namedInWords(open, asked) : undefined;
  // A row the ask's own clause names above every other, so by more of its words than the open row
  // they fit, is the one meant, and its reason refuses it (set AR: "refund me the shipping on my
  // lamp order" started the cancel-and-refund the order still allowed, for the whole order). The
  // first ask's clause, and only where no other ask names another row: a reason names none ("…,
  // the shipping is taking too long", review 55), and asks naming two set one aside ("forget the
  // shipping refund, cancel my lamp order", review 55b).
  const asks = first ? queryClauses(asked.toLowerCase()).filter((c) => c.role === "request") : [];
  const [meant, ...others] = asks.map((c) => namedInWords(rows, c.text));
  if (first && meant && meant !== first && others.every((r) => !r || r === meant))
    return fitting(meant) ?? fitting(first);
  return fitting(first) ?? fitting(namedInWords(rows, asked));
}

/**
 * A stop's errors, with the age-named record's own verdict when nothing else refused it: a node
 * that does not re-check the record it is given never runs a change its offer said it cannot take.
 */
function heldByVerdict(errors: ValidationError[], verdict: ValidationError | undefined): ValidationError[] {
  return verdict && !errors.length ? [verdict] : errors;
}

/** Why a record was taken, and where it stands when a question asked (why-picked.ts). */
function whyWithState(why: string | undefined, stands: string | undefined): { why?: string } {
  const said = [why, stands].filter(Boolean).join("; ");
  return said ? { why: said } : {};
}

/** The one row the request quotes by its very value ("tkt_1"), if any. */
function quotedIn(rows: ChoiceRow[], request: string): ChoiceRow | undefined {
  // A value the words refuse is no value quoted ("not urgent", "anything but pending": review 53b
  // found a change nobody approves set to it at once).
  const said = new Set(
    withoutDenied(request)
      .toLowerCase()
      .match(/[\p{L}\p{N}_-]+/gu) ?? [],
  );
  const quoted = rows.filter((r) => said.has(r.value.toLowerCase()));
  return quoted.length === 1 ? quoted[0] : undefined;
}

/** How a field's default is chosen, as its schema says it: "… (default: the full refundable amount)". */
function defaultRule(schema: ZodType | undefined): string | undefined {
  const rule = /\(default: ([^)]{3,80})\)/.exec(schema?.description ?? "")?.[1];
  return rule?.trim();
}

/** The texts the action's fields already hold: their words are the values', not settings. */
function givenTexts(values: Values): string[] {
  return Object.values(values).filter((v): v is string => typeof v === "string");
}

/** The values a node's field schemas give when the field is not sent (`.default(false)`). */
function schemaDefaults(fields: Record<string, ZodType>): Values {
  const out: Values = {};
  for (const [field, schema] of Object.entries(fields)) {
    const parsed = schema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) out[field] = parsed.data;
  }
  return out;
}

/**
 * Lists of records whose rows carry their creation time, re-ordered as the user's words ask
 * ("the oldest …", "my latest …"): `options` gets the ordered copies, the answer their heading
 * (age-order.ts: the rows and the heading from the same keys; the node's own heading kept where
 * the words moved no row). Round 6: "oldest" in the words left the tickets in the node's order
 * and cost a re-sort.
 */
function byAgeAsked(
  options: Record<string, unknown>,
  own: Record<string, unknown>,
  request: string | undefined,
  entity: string,
): Record<string, string> {
  const asked = request ? ageAsked(request, entity) : undefined;
  const order: Record<string, string> = {};
  if (!asked) return order;
  const nodeOrder = (own.order_of ?? {}) as Record<string, unknown>;
  for (const [key, list] of Object.entries(own)) {
    const aged = Array.isArray(list) ? byAge(list, asked.end, asked.described) : undefined;
    if (!aged) continue;
    options[key] = aged.rows;
    const kept = typeof nodeOrder[key] === "string" ? (nodeOrder[key] as string) : "";
    // One row left has no order to state.
    const says = [aged.only, aged.says || (aged.rows.length > 1 ? kept : "")].filter(Boolean).join(", ");
    if (says) order[key] = says;
  }
  return order;
}
