import { describe, expect, it } from "vitest";
import { noteVaultValue, scrubVaultText, scrubVaultValues } from "@/server/vault-values";

// Every tool result passes scrubVaultValues (mcp/observe-tool-calls.ts). It copies only what it
// changes: a clean result comes back as the very same objects, and a result holding a vault
// value is scrubbed exactly as a full copy would scrub it (the previous implementation, below).

/** The full-copy scrub this one replaced: every object and array copied, then the copy kept if anything changed. */
function fullCopyScrub<T>(value: T, depth = 0): T {
  if (depth > 40) return value;
  if (typeof value === "string") return scrubVaultText(value) as T;
  if (Array.isArray(value)) {
    const mapped = value.map((v) => fullCopyScrub(v, depth + 1));
    return (mapped.some((v, i) => v !== value[i]) ? mapped : value) as T;
  }
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const key = scrubVaultText(k);
      const next = fullCopyScrub(v, depth + 1);
      if (key !== k || next !== v) changed = true;
      out[key] = next;
    }
    return (changed ? out : value) as T;
  }
  return value;
}

const SECRET = "vault-scrub-test-Zq81mXr4";

/** A deterministic pseudo-random JSON tree, some of whose strings and keys hold the secret. */
function tree(seed: number, depth = 0): unknown {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const leaf = () => {
    const r = next();
    if (r < 0.03) return `token ${SECRET} here`;
    if (r < 0.05) return Buffer.from(SECRET).toString("base64");
    if (r < 0.4) return `text ${Math.floor(next() * 1000)}`;
    if (r < 0.6) return Math.floor(next() * 100);
    if (r < 0.7) return null;
    return r < 0.8;
  };
  if (depth > 3) return leaf();
  const r = next();
  if (r < 0.3)
    return Array.from({ length: Math.floor(next() * 5) }, (_, i) => tree(seed * 31 + i, depth + 1));
  if (r < 0.6) {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < Math.floor(next() * 6); i++)
      out[next() < 0.02 ? `k_${SECRET}` : `k${i}`] = tree(seed * 17 + i, depth + 1);
    return out;
  }
  return leaf();
}

describe("scrubVaultValues copies only what it changes", () => {
  noteVaultValue(SECRET);

  it("scrubs every tree exactly as a full copy does", () => {
    let scrubbedSome = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const input = tree(seed);
      const before = JSON.stringify(input);
      const expected = fullCopyScrub(input);
      const actual = scrubVaultValues(input);
      expect(JSON.stringify(actual), `seed ${seed}`).toBe(JSON.stringify(expected));
      expect(JSON.stringify(input), "the input is never changed").toBe(before);
      expect(actual === input, `seed ${seed}`).toBe(expected === input);
      if (actual !== input) scrubbedSome++;
      expect(JSON.stringify(actual)).not.toContain(SECRET);
    }
    expect(scrubbedSome).toBeGreaterThan(10);
  });

  it("keeps the clean parts of a changed tree as they were, the same objects", () => {
    const clean = { a: [1, { b: "x" }], c: { d: "y" } };
    const input = { first: clean, second: `has ${SECRET}`, third: clean.c };
    const out = scrubVaultValues(input);
    expect(out).not.toBe(input);
    expect(out.first).toBe(clean);
    expect(out.third).toBe(clean.c);
    expect(out.second).toBe("has [redacted]");
    expect(Object.keys(out)).toEqual(["first", "second", "third"]);
  });
});
