import type { AnyCapability, Values } from "../connectors/sdk/define-capability";
import { choicesFor, namedInWords, wordTokens } from "./choice-words";
import { askPart } from "./described-records";

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");

/**
 * The fixed choices of later steps that the user's request names, taken while the action stops at
 * an earlier step: "…and pay from my account balance" while the checkout still asks for shipping.
 * Played (issue 23): a start by words that said "balance" answered `later: payment_type (balance |
 * card)`, and the model had to send back what the user had already said.
 *
 * Only a field's own fixed values (its enum) are read: a later step's offered rows are not known
 * before it runs. A value is taken only when the words name exactly one (a word in several values
 * names none), and never by a word that also describes a record offered now ("open" of an open
 * ticket is which ticket, not a later status). The values go where an advance would put them; the
 * engine applies them in node order and checks them there, and the answer shows them as taken.
 */
export function laterChoicesInWords(
  capability: AnyCapability,
  index: number,
  values: Values,
  options: Record<string, unknown>,
  request: string,
): Record<string, string> {
  const offered = offeredWords(options);
  const out: Record<string, string> = {};
  for (const node of capability.nodes.slice(index + 1)) {
    if (node.requiresConfirmation) break;
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      if (present(values[field]) || field in out) continue;
      const rows = choicesFor(field, {}, schema);
      if (rows.length < 2) continue;
      const asked = askPart(request, rows);
      const named = namedInWords(rows, asked);
      if (!named) continue;
      const said = wordTokens(asked).filter((t) => named.tokens.has(t));
      if (said.some((t) => offered.has(t))) continue;
      out[field] = named.value;
    }
  }
  return out;
}

/** Every word of the rows offered now (their string values): what describes a record here. */
function offeredWords(options: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(options)) {
    const rows = Array.isArray(list) ? list : list && typeof list === "object" ? [list] : [];
    for (const row of rows)
      if (row && typeof row === "object")
        for (const v of Object.values(row as Record<string, unknown>))
          if (typeof v === "string") for (const t of wordTokens(v.replace(/[_-]/g, " "))) out.add(t);
  }
  return out;
}
