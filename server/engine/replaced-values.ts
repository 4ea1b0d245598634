import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { Evaluation } from "./evaluate-action";
import { recordRowIn } from "./record-row";

/**
 * The values a start's words replace: each field it took from the words, with the other value its
 * record's own row held for it (field → that value). The gateway reads them so another clause
 * naming that value ("take Y off …" beside "give it to X") is known as part of this change, even
 * once the change has run and the record holds the new value.
 */
export function replacedValues(capability: AnyCapability, ev: Evaluation): Record<string, string> {
  const row = recordRow(capability, ev);
  const out: Record<string, string> = {};
  for (const f of Object.keys(ev.fromWords)) {
    const before = row?.[f];
    if (f !== capability.appliesTo.field && typeof before === "string" && before !== ev.values[f])
      out[f] = before;
  }
  return out;
}

/** The row the nodes offer of the action's record itself (`{id: …, <field>: …}`), alone or in a list. */
export function recordRow(capability: AnyCapability, ev: Evaluation): Record<string, unknown> | undefined {
  return recordRowIn(capability.appliesTo.field, ev.values, ev.options);
}
