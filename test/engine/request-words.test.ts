import { describe, expect, it } from "vitest";
import { requestWords } from "@/server/engine/request-words";

describe("the words of a request that choose a capability", () => {
  it("leaves out what the user quotes, in any quote marks, but not words with apostrophes", () => {
    for (const quoted of [
      "'refund on its way'",
      '"refund on its way"',
      "“refund on its way”",
      "‘refund on its way’",
    ])
      expect(requestWords(`add a note: ${quoted}`)).not.toContain("refund");
    expect(requestWords("I don't want the customers' refund")).toBe("I don't want the customers' refund");
    expect(requestWords("note 'we can't refund it' please")).not.toContain("refund");
    expect(requestWords("note ‘we can’t refund it’ please")).not.toContain("refund");
    expect(requestWords("I don’t want a refund")).toContain("refund");
  });

  it("a quote that is all there is stays the request", () => {
    expect(requestWords('"refund my order"')).toBe('"refund my order"');
  });

  it("cuts a record id to its known prefix, leaving other words with underscores alone", () => {
    expect(requestWords("deliver it home ord_pending", ["ord_", "tkt_"])).toBe("deliver it home ord_");
    expect(requestWords("change_delivery_address of TKT_3", ["ord_", "tkt_"])).toBe(
      "change_delivery_address of TKT_",
    );
  });
});
