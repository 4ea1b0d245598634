import type { AnyCapability } from "../connectors/sdk/define-capability";
import { isFreeText } from "./choice-words";

/** Per capability: whether one of its fields takes a person's own text. */
const carries = new WeakMap<AnyCapability, boolean>();

function takesText(capability: AnyCapability): boolean {
  let known = carries.get(capability);
  if (known === undefined) {
    known = capability.nodes.some((n) =>
      Object.entries(n.fields ?? {}).some(([field, schema]) => isFreeText(field, schema, {})),
    );
    carries.set(capability, known);
  }
  return known;
}

/**
 * The request as a capability's choices read it. The words after an ask's colon are the text it
 * carries ("resolve the shipping ticket: the customer got the parcel"), and the readers of
 * records and choices leave them out (described-records.ts). A capability with no field for a
 * person's text carries none, so there they are more of the ask: played (issue 23, set AI), "Buy
 * the whole cart: ship to my office with standard shipping and pay by card" took the items only,
 * and asked for the address, shipping and payment the user had just named — even where the agent
 * had also sent them as fields. Read so for the fields other than the record's: the words before a
 * colon still name the record ("My lamp order: has it shipped yet?").
 */
export function detailAsAsk(capability: AnyCapability, request: string): string {
  if (!request || takesText(capability)) return request;
  return request.replace(/:(?=\s)/g, ",");
}
