import { describe, expect, it } from "vitest";
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
    expect(visibleText("plain words 123")).toBe("plain words 123");
    expect(visibleText("<U+0041>")).toBe("<U+003C>U+0041>");
    expect(visibleText("a\u202eb")).toBe("a<U+202E>b");
    expect(visibleText("tab\there")).toBe("tab<U+0009>here");
  });
});
