import type { ZodType } from "zod";
import type { AnyCapability } from "../connectors/sdk/define-capability";
import { choicesFor, wordTokens } from "./choice-words";
import type { Evaluation } from "./evaluate-action";
import { valueWordsOf } from "./value-words";

/**
 * The words of the user's request that named a value the start took from them: the request's
 * words that the chosen row says of itself ("store credit" of the balance method, "kettle" of the
 * order holding one), through the same choices the node offers, with the words its connector
 * declares. The gateway reads them so a clause that only sets a field of the action ("…, from my
 * store credit") is never said to be an ask nothing does (played: it was). A reason filled with
 * the whole request is no choice: its words name nothing here.
 */
export function wordsThatSet(capability: AnyCapability, ev: Evaluation, request: string): string[] {
  const said = new Set(wordTokens(request));
  const schemas: Record<string, ZodType> = Object.assign({}, ...capability.nodes.map((n) => n.fields ?? {}));
  const out = new Set<string>();
  for (const field of Object.keys(ev.fromWords)) {
    if (ev.fromRequest.includes(field)) continue;
    const value = ev.values[field];
    // A list of ids ("item_ids") names its rows by the one-id key (`item_id`).
    const list = Array.isArray(value);
    const key = list && field.endsWith("s") ? field.slice(0, -1) : field;
    const chosen = new Set((list ? value : [value]).filter((v): v is string => typeof v === "string"));
    if (!chosen.size) continue;
    const rows = choicesFor(
      key,
      ev.options,
      list ? undefined : schemas[field],
      valueWordsOf(capability, field),
    );
    for (const row of rows) {
      if (!chosen.has(row.value)) continue;
      for (const t of row.tokens) if (said.has(t)) out.add(t);
    }
  }
  return [...out];
}
