import type { AnyCapability } from "../connectors/sdk/define-capability";
import { choicesFor } from "./choice-words";
import { lineHolds, lineText, wholeLinesRule } from "./partial-line-words";

/**
 * The shape of a whole-lines field, per line what each id takes ("[string]: a return takes whole
 * lines: ord_1_item_2 = Signpost Mug ×2 ($36.00), …"), so a bare `[string]` never hides that a line
 * goes whole. Undefined when its rows carry no quantity.
 */
export function wholeLinesShape(
  capability: AnyCapability,
  field: string,
  options: Record<string, unknown>,
): string | undefined {
  if (!field.endsWith("s")) return undefined;
  const rows = choicesFor(field.slice(0, -1), options);
  if (!rows.length || !rows.some((r) => lineHolds(r))) return undefined;
  const lines = rows.slice(0, 10).map((r) => `${r.value} = ${lineText(r, capability)}`);
  return `[string]: ${wholeLinesRule(capability, field)}, each id all of its line: ${lines.join(", ")}`;
}
