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
 * A statement: a finite verb said of something ("nobody is home", "the customer asked …", "it went
 * to my home", "I'll be home", "my address changed"). Directives have none ("ship to my office
 * with standard shipping and pay by card"); what an "if" or "when" makes a condition of ("use one
 * if it applies") is left out first.
 */
const FINITE =
  /\b(?:is|are|was|were|am|isn't|aren't|wasn't|weren't|has|have|had|hasn't|haven't|does|did|do|doesn't|didn't|don't|will|would|can|could|should|shall|may|might|must|won't|can't|went|gave|said|says|asked|told|got|came|left|took|found|knew|thought|felt|saw|wants|needs|seems|looks)\b|['’](?:s|re|ve|ll|d|m)\b|\b\p{L}{3,}ed\b/iu;
const CONDITION = /\b(?:if|when|unless|once|in case)\b[^,;.]*/gi;

/** Whether words after an ask's colon are more of the ask: directives, no statement of fact. */
function directs(detail: string): boolean {
  const text = detail.replace(CONDITION, " ");
  return /\p{L}/u.test(text) && !FINITE.test(text);
}

/**
 * The request as a capability's choices read it, for the fields other than the record's (the
 * words before a colon name the record: "My lamp order: has it shipped yet?"). After an ask's one
 * colon come either the text it carries ("resolve the shipping ticket: the customer got the
 * parcel"), which the readers of records and choices leave out (described-records.ts), or more
 * of the ask. A capability with no field for a person's text carries none: there, words that only
 * direct are more of the ask (played, set AI: "Buy the whole cart: ship to my office with standard
 * shipping and pay by card" took the items only and asked again for what the user had named),
 * and a statement is why, read for nothing (review 53: "Change the delivery address of my kettle
 * order: nobody is home to sign for it" moved it home at once; "Add a mug to my cart: I gave 3
 * away" counted three).
 */
export function detailAsAsk(capability: AnyCapability, request: string): string {
  if (takesText(capability)) return request;
  // Directives are read only where a person approves every change the capability makes: a misread
  // there is on their screen before anything happens (review 53b: "…kettle order: anything but
  // home" moved it home at once, "…: Bella off sick" assigned Bella).
  return askWithoutStatement(request, capability.policy.approval === "always");
}

/**
 * The request with the words after its one colon read as more of the ask where they only direct
 * (and `directives` allows it), else without them where they state something (a reason: "…: last
 * time it went to my home" names no record by "last"); as written otherwise.
 */
export function askWithoutStatement(request: string, directives = true): string {
  const colons = [...request.matchAll(/:(?=\s)/g)];
  if (colons.length !== 1) return request;
  const at = colons[0]?.index ?? 0;
  const [ask, detail] = [request.slice(0, at), request.slice(at + 1)];
  if (ask.trim().split(/\s+/).length < 3) return request;
  if (!directs(detail)) return ask;
  return directives ? `${ask},${detail}` : request;
}
