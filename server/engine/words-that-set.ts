import type { ZodType } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { choicesFor, wordTokens } from "./choice-words";
import type { Evaluation } from "./evaluate-action";
import { replacedValues } from "./replaced-values";
import { valueWordsOf } from "./value-words";

/**
 * The words of the user's request that name a value the start holds (taken from them, or sent
 * beside them): the request's words that the chosen row says of itself ("store credit" of the balance method, "kettle" of the
 * order holding one), through the same choices the node offers, with the words its connector
 * declares. The gateway reads them so a clause that only sets a field of the action ("…, from my
 * store credit") is never said to be an ask nothing does (played: it was). A reason filled with
 * the whole request is no choice: its words name nothing here.
 */
export function wordsThatSet(capability: AnyCapability, ev: Evaluation, request: string): string[] {
  const said = new Set(wordTokens(request));
  const schemas: Record<string, ZodType> = Object.assign({}, ...capability.nodes.map((n) => n.fields ?? {}));
  const out = new Set<string>();
  // Every value the action holds, the fields sent beside the words too (set BT: a checkout form
  // sent with `payment_type` and the words "…, paid from my store credit" offered those words as
  // an after-sales ask: only fields taken from the words were read).
  for (const field of new Set([...Object.keys(ev.fromWords), ...Object.keys(ev.values)])) {
    if (ev.fromRequest.includes(field)) continue;
    let set = false;
    for (const { key, chosen, schema } of chosenValues(field, ev.values[field], schemas[field])) {
      for (const row of choicesFor(key, ev.options, schema, valueWordsOf(capability, field))) {
        if (!chosen.has(row.value)) continue;
        for (const t of row.tokens)
          if (said.has(t)) {
            out.add(t);
            set = true;
          }
      }
    }
    // Words naming the field whose value they set ("express delivery to my office": the delivery
    // address, set CP) set it too: the clause is the action's detail, not an address change.
    // Not the record's own field: "the kettle order too" asks again of another record.
    if (set && field !== capability.appliesTo.field)
      for (const t of fieldNaming(capability, field)) if (said.has(t)) out.add(t);
  }
  return [...out];
}

/**
 * The words that name a field: its name's ("thing_id": thing) and its node's head (the
 * description up to its first pause: "Delivery address, one of …": delivery, address).
 */
function fieldNaming(capability: AnyCapability, field: string): string[] {
  const node = capability.nodes.find((n) => n.fields && Object.hasOwn(n.fields, field));
  const head = node?.description.split(/[;,:(]/)[0] ?? "";
  return wordTokens(`${field.replace(/_/g, " ")} ${head}`).filter((t) => t !== "id");
}

/**
 * What a start tells the gateway of its words (ActionResponse.field_words and .replaced): the
 * words that set its fields, and the values those fields held before.
 */
export function fieldWords(
  capability: AnyCapability,
  ev: Evaluation,
  intent?: string,
): { field_words?: string[]; replaced?: Record<string, string> } {
  const words = intent ? wordsThatSet(capability, ev, intent) : [];
  const replaced = replacedValues(capability, ev);
  return {
    ...(words.length ? { field_words: words } : {}),
    ...(Object.keys(replaced).length ? { replaced } : {}),
  };
}

/**
 * The ids a field's value chose, under the key its choices' rows carry them: one value under the
 * field's own name; a list of ids ("item_ids") under the one-id key (`item_id`); a list of rows
 * (`[{thing_id, count}]`) under each of their id keys ("Only the mugs" names the
 * purchase's own line, set I).
 */
function chosenValues(
  field: string,
  value: unknown,
  schema: ZodType | undefined,
): Array<{ key: string; chosen: Set<string>; schema?: ZodType }> {
  if (!Array.isArray(value))
    return typeof value === "string" ? [{ key: field, chosen: new Set([value]), schema }] : [];
  const ids = value.filter((v): v is string => typeof v === "string");
  const byKey = new Map<string, Set<string>>();
  if (ids.length) byKey.set(field.endsWith("s") ? field.slice(0, -1) : field, new Set(ids));
  for (const row of value) {
    if (!row || typeof row !== "object") continue;
    for (const [k, v] of Object.entries(row))
      if (k.endsWith("_id") && typeof v === "string") byKey.set(k, (byKey.get(k) ?? new Set()).add(v));
  }
  return [...byKey].map(([key, chosen]) => ({ key, chosen }));
}
