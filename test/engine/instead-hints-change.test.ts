import { describe, expect, it } from "vitest";
import {
  capabilityRegistry,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "@/server/connectors/connector-registry";
import { buildCapabilityIndex } from "@/server/engine/capability-search";

// As the gateway builds it: id prefixes, synonyms and topic words come from the connectors.
const index = buildCapabilityIndex([...capabilityRegistry().values()], {
  idPrefixes: recordIdPrefixes(),
  synonyms: searchSynonyms(),
  topics: searchTopics(),
});

/** The best match of the words, whether it leads clearly, and what it is said not to be for. */
function lead(q: string) {
  const [a, b] = index.search(q);
  return { top: a?.capability, clear: !!a && (b?.score ?? 0) < a.score / 2, not_for: a?.not_for };
}

/**
 * Set BR: "Give the headphones ticket to Sara instead of Sid" ranked an address change first and
 * left the assignment out: "instead" was read as asking "change", and the assignment's own "Does
 * not change status, priority or messages" then said it was not for the words.
 */
describe("'instead' beside the verb that asks only hints at a change", () => {
  it("'give … to X instead of Y' and '… instead' assign the ticket, clearly; 'send it home instead' still redirects", () => {
    for (const q of [
      "Give the headphones ticket to Sara instead of Sid",
      "Give the headphones ticket to Sara instead",
    ])
      expect(lead(q), q).toEqual({ top: "assign_ticket", clear: true, not_for: undefined });
    for (const q of [
      "please ship my order to my home instead of the office",
      "Send my kettle order to my home instead",
    ])
      expect(lead(q).top, q).toBe("change_delivery_address");
  });
});
