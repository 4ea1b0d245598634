import { describe, expect, it } from "vitest";
import { safeNext } from "@/components/safe-next";

// Protects: after sign-in, `next` only ever leads to a path on this site. Each hostile case is
// also resolved the way a browser would resolve it, to show what the old prefix checks let through.

const SITE = "https://signpost.example";

describe("safeNext", () => {
  it.each([
    ["//evil.com", "protocol-relative"],
    ["/\\evil.com", "backslash read as a slash"],
    ["/\t/evil.com", "tab stripped by the browser (Next decodes %09 before we see it)"],
    ["/%09/evil.com", "the same, still percent-encoded"],
    ["/\n/evil.com", "newline stripped by the browser"],
    ["/%5Cevil.com", "encoded backslash"],
    ["https://evil.com", "absolute URL"],
    ["javascript:alert(1)", "script URL"],
    ["/.//evil.com", "dot segment that normalises to //evil.com"],
    ["/..//evil.com", "dot-dot segment that normalises to //evil.com"],
    [" //evil.com", "leading space"],
    ["evil.com", "not a path"],
    ["", "empty"],
  ])("refuses %j (%s) and answers /", (next) => {
    expect(safeNext(next)).toBe("/");
  });

  it("the tab case is a real open redirect for a prefix check, and safeNext stops it", () => {
    const raw = "/\t/evil.com";
    // What the old check accepted…
    expect(raw.startsWith("/") && !raw.startsWith("//") && !raw.startsWith("/\\")).toBe(true);
    // …is another site once a browser resolves it.
    expect(new URL(raw, SITE).origin).toBe("https://evil.com");
    expect(new URL(safeNext(raw), SITE).origin).toBe(SITE);
  });

  it.each([
    ["/approvals?x=1#y", "/approvals?x=1#y"],
    ["/", "/"],
    ["/actions/act_123", "/actions/act_123"],
    ["/monitor?face=browse&q=a%20b", "/monitor?face=browse&q=a%20b"],
    ["/a/../approvals", "/approvals"],
  ])("keeps the same-site path %j", (next, expected) => {
    expect(safeNext(next)).toBe(expected);
    expect(new URL(safeNext(next), SITE).origin).toBe(SITE);
  });

  it("answers / for anything that is not one string", () => {
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext(["/approvals", "//evil.com"])).toBe("/");
    expect(safeNext(`/${"a".repeat(3000)}`)).toBe("/");
  });
});
