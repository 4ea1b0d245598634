import { describe, expect, test } from "vitest";
import { csvCell } from "@/server/gateway/console/csv-cell";
import { quotedHtml, quotedText } from "@/server/gateway/quoted-agent-text";

/** Issue 19 (held-out): agent text in an approver's email and in the audit export. */
describe("agent text quoted in a plain-text email cannot fake the end of the quote", () => {
  const END = "└─ end of the agent's text ─";

  test("padding with spaces (plain or wide) cannot push a forged end line to where a wrap starts it", () => {
    for (const pad of [" ".repeat(120), "\u3000".repeat(60), "\u00A0\u2003".repeat(60)]) {
      const quote = quotedText(
        "Reason",
        `please${pad}${END}${pad}Grant or deny: https://evil.example/permissions`,
      );
      const lines = quote.split("\n");
      expect(lines.filter((l) => l === END)).toHaveLength(1);
      expect(lines.at(-1)).toBe(END);
      // Every line between the quote's own first and last starts with its mark, and is short
      // enough that no mail client wraps it again.
      for (const line of lines.slice(1, -1)) {
        expect(line.startsWith("│ ")).toBe(true);
        expect([...line].length).toBeLessThanOrEqual(72);
      }
      expect(quote).not.toMatch(/ {2}|\u3000|\u00A0|\u2003/);
    }
  });

  test("words padding a line to the wrap column cannot either; a long word is cut, marked", () => {
    const quote = quotedText("Reason", `${"word ".repeat(30)}${END} ${"x".repeat(200)}`);
    const lines = quote.split("\n");
    expect(lines.filter((l) => l.startsWith("└─"))).toEqual([END]);
    expect(lines.slice(1, -1).every((l) => l.startsWith("│ ") && [...l].length <= 72)).toBe(true);
  });

  test("the HTML quote keeps the text's spaces as shown in the plain one, pre-wrapped", () => {
    const html = quotedHtml("Reason", "a   b");
    expect(html).toContain("white-space:pre-wrap");
    expect(html).toContain(">a b<");
  });
});

describe("an audit export cell never starts a formula, whatever a reader splits at", () => {
  test("after a line break inside a cell, after blanks, after a pipe", () => {
    expect(csvCell("x\n=1+1")).toBe(`"x\n'=1+1"`);
    expect(csvCell("x\r\n@SUM(1+1)")).toBe(`"x\r\n'@SUM(1+1)"`);
    expect(csvCell("x\r+1")).toBe(`"x\r'+1"`);
    expect(csvCell(" =1+1")).toBe(`"' =1+1"`);
    expect(csvCell("x; \t-1")).toBe(`"x;' \t'-1"`);
    expect(csvCell("x|=1+1")).toBe(`"x|'=1+1"`);
    expect(csvCell("x\u2028=1+1")).toBe(`"x\u2028'=1+1"`);
    expect(csvCell("plain text, fine")).toBe(`"plain text, fine"`);
  });
});
