import { describe, expect, test } from "vitest";
import { visibleText } from "@/server/connectors/sdk/visible-text";

describe("visibleText shows every character that draws nothing (issue 19, held-out)", () => {
  test("every default-ignorable code point is shown by its code point", () => {
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (/\p{Default_Ignorable_Code_Point}/u.test(ch) && visibleText(ch) === ch)
        missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });

  test("the ones the attack used read as their code points inside a value", () => {
    expect(visibleText("acct_12\u206534")).toBe("acct_12<U+2065>34");
    expect(visibleText("acct_12\uFFF034")).toBe("acct_12<U+FFF0>34");
    expect(visibleText("acct_12\u{E0100}34")).toBe("acct_12<U+E0100>34");
    expect(visibleText("acct_12\u{E01EF}34")).toBe("acct_12<U+E01EF>34");
    expect(visibleText("acct_1234")).toBe("acct_1234");
  });
});
