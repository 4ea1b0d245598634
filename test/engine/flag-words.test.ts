import { describe, expect, it } from "vitest";
import { z } from "zod";
import { flagInWords } from "../../server/engine/flag-words";

const flag = z.boolean().default(false);

describe("a yes/no field named by the user's words", () => {
  it("every word of its name, near each other, sets it; a refusal before it clears it", () => {
    expect(flagInWords("internal", flag, "add an internal note to tkt_3", [])).toBe(true);
    // A review: the "not" of another phrase, and a field's text after the ask's colon.
    expect(
      flagInWords("internal", flag, "Not a reply, an internal note on tkt_3: waiting for stock", []),
    ).toBe(true);
    expect(
      flagInWords("internal", flag, "Comment on tkt_3: our internal team is checking", []),
    ).toBeUndefined();
    expect(flagInWords("notify_customer", flag, "close it and notify the customer", [])).toBe(true);
    expect(flagInWords("internal", flag, "don't make it internal", [])).toBe(false);
    // A curly apostrophe, as phones type it, refuses as the straight one does (security review).
    expect(flagInWords("internal", flag, "don’t make it internal", [])).toBe(false);
    expect(flagInWords("notify_customer", flag, "close it, don’t notify the customer", [])).toBe(false);
    expect(flagInWords("is_internal", flag, "a note, not internal", [])).toBe(false);
  });

  it("never from quoted text, text a field holds, words far apart, or a field that is no yes/no", () => {
    expect(flagInWords("internal", flag, "comment: 'our internal review is done'", [])).toBeUndefined();
    expect(
      flagInWords("internal", flag, "say the internal review is done", ["the internal review is done"]),
    ).toBe(undefined);
    expect(
      flagInWords("notify_customer", flag, "notify sara; the ticket's requester is a customer", []),
    ).toBe(undefined);
    expect(flagInWords("internal", z.string(), "an internal note", [])).toBeUndefined();
  });
});
