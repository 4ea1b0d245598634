import { describe, expect, it } from "vitest";
import { cardNumberSpans } from "@/server/card-numbers";
import { escapeMarkdown } from "@/server/connectors/sdk/markdown";
import { visibleText } from "@/server/connectors/sdk/visible-text";
import { REDACTED, redactText } from "@/server/redact-secrets";
import { noteVaultValue } from "@/server/vault-values";

// Issue 22: redaction, escaping and the invisible-character scan run on every cell of every page,
// every audit row and every log line, so each now returns early where its patterns cannot match
// (ASCII copied whole by the card scan, fewer than 13 possible digits, no `://`, no `eyJ`, no
// markdown character, printable ASCII). These are the texts that sit right at those edges: the
// early returns must never let through what the full scan catches.
describe("redaction and escaping fast paths", () => {
  it("a card among non-ASCII text is found where the ASCII runs are copied whole", () => {
    for (const text of [
      "total · 4111 1111 1111 1111 · paid",
      "— 4111111111111111 —",
      "é4111-1111-1111-1111é",
      "😀 4111 1111 1111 1111 😀",
      "中文4111111111111111中文",
    ]) {
      const out = redactText(text);
      expect(out, text).toContain(REDACTED);
      expect(out, text).not.toContain("1111 1111");
      expect(out, text).not.toContain("4111111111111111");
    }
    // Positions after a character of two code units still cut exactly the card.
    expect(redactText("😀 4111111111111111 end")).toBe(`😀 ${REDACTED} end`);
  });

  it("a page's text is scanned as it is only where its view would read the same", () => {
    // Each character as the card view writes it: separators as theirs, other non-ASCII as `~`.
    const viewOf = (text: string) =>
      text
        .replace(/[\u2010-\u2015\u2212]/g, "-")
        .replace(/\u00a0/g, " ")
        .replace(/\u0664/g, "4")
        .replace(/\u0661/g, "1")
        .replace(/[^ -~]/g, "~");
    const parts = [
      "4111",
      "1111",
      " ",
      "-",
      "—",
      "−",
      "\u00a0",
      "·",
      "é",
      "٤",
      "١",
      "x",
      "_",
      "12",
      ".",
      "/",
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 3000; n++) {
      let text = "";
      const length = 4 + (next() % 14);
      for (let i = 0; i < length; i++) text += parts[next() % parts.length];
      // Every character here is one code unit: the view's offsets are the text's.
      expect(cardNumberSpans(text), text).toEqual(cardNumberSpans(viewOf(text)));
    }
    // A dash beside a digit joins groups; beside a word it joins nothing.
    expect(redactText("4111—1111—1111—1111")).toBe(REDACTED);
    expect(redactText("card — 4111 1111 1111 1111 — paid")).toBe(`card — ${REDACTED} — paid`);
    expect(redactText("· 4111 1111 1111 1111 ·")).toBe(`· ${REDACTED} ·`);
  });

  it("a card in non-ASCII digits, and one of exactly 13 digits, are still found", () => {
    expect(redactText("card ４１１１１１１１１１１１１１１１")).toContain(REDACTED);
    expect(redactText("٤١١١١١١١١١١١١١١١")).toContain(REDACTED);
    // A 13-digit Visa (Luhn-valid): the least a network issues.
    expect(redactText("visa 4222222222222 ok")).toBe(`visa ${REDACTED} ok`);
  });

  it("text with fewer than 13 digits, amounts and dates included, comes out as it went in", () => {
    for (const text of ["$320.00", "2026-12-03", "ord_paid_item_1", "12 of 4111", "total: $316.00 · USD"])
      expect(redactText(text)).toBe(text);
  });

  it("every pattern with a fixed part still fires when the part is there", () => {
    expect(redactText("https://user:hunter2pass@example.com/x")).not.toContain("hunter2pass");
    expect(redactText("x eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc")).not.toContain("eyJzdWIiOiIxIn0");
    expect(redactText("AIzaSyA1234567890123456789012345678901")).toBe(REDACTED);
    expect(redactText("AKIAABCDEFGHIJKLMNOP")).toBe(REDACTED);
    expect(redactText("key lk_acme_0123456789")).toBe(`key ${REDACTED}`);
    expect(redactText("password=hunter2")).toBe(`password=${REDACTED}`);
    expect(redactText('"api_key": "abc123"')).toBe(`"api_key": "${REDACTED}"`);
  });

  it("short texts: the shortest secrets are still found, words come out as they went in", () => {
    // The shortest of each kind, at or just past the length the early return trusts (11).
    expect(redactText("lk_01234567")).toBe(REDACTED);
    expect(redactText("pwd=x")).toBe(`pwd=${REDACTED}`);
    expect(redactText("pin=1234")).toBe(`pin=${REDACTED}`);
    expect(redactText("pwd:x")).toBe(`pwd:${REDACTED}`);
    expect(redactText("a://b:c@d")).toBe(`a://b:${REDACTED}@d`);
    expect(redactText("4222222222222")).toBe(REDACTED);
    for (const text of ["POST", "/mcp", "applied", "request_id", "get_contex", "lk_0123456"])
      expect(redactText(text)).toBe(text);
  });

  it("a short text that holds a vault value is still scrubbed", () => {
    noteVaultValue("s3cr3tv8");
    expect(redactText("s3cr3tv8")).toBe(REDACTED);
    expect(redactText("x s3cr3tv8")).toBe(`x ${REDACTED}`);
  });

  it("escaping and showing invisible characters still apply where a character needs it", () => {
    expect(escapeMarkdown("plain words 123")).toBe("plain words 123");
    expect(escapeMarkdown("a*b")).toBe("a\\*b");
    expect(escapeMarkdown("see https://x")).toBe("see https\\://x");
    expect(escapeMarkdown("_lead")).toBe("\\_lead");
    // `:` and `&` start nothing by themselves: only before `//` or an entity are they escaped.
    expect(escapeMarkdown("returnable: not shipped yet")).toBe("returnable: not shipped yet");
    expect(escapeMarkdown("fish & chips")).toBe("fish & chips");
    expect(escapeMarkdown("a&amp;b")).toBe("a\\&amp;b");
    expect(escapeMarkdown("a &#39; b")).toBe("a \\&#39; b");
    expect(escapeMarkdown("shop://x")).toBe("shop\\://x");
    expect(visibleText("plain words 123")).toBe("plain words 123");
    expect(visibleText("<U+0041>")).toBe("<U+003C>U+0041>");
    expect(visibleText("a\u202eb")).toBe("a<U+202E>b");
    expect(visibleText("tab\there")).toBe("tab<U+0009>here");
  });
});
