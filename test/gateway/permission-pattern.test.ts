import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalPermissionTarget,
  compileGlob,
  globMatches,
  MAX_PATTERN_LENGTH,
  type MatchCounter,
  parsePermissionPattern,
  permissionPatternMatches,
} from "@/server/gateway/permission-pattern";

/**
 * The obviously-correct reference: the grammar's definition read as a recursion (`**` any run,
 * `*` any run without `/`, anything else itself), memoized so it terminates on long inputs.
 */
function referenceMatches(pattern: string, target: string): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (pattern.length + 1) + j;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let result: boolean;
    if (j === pattern.length) result = i === target.length;
    else if (pattern.startsWith("**", j)) result = go(i, j + 2) || (i < target.length && go(i + 1, j));
    else if (pattern[j] === "*")
      result = go(i, j + 1) || (i < target.length && target[i] !== "/" && go(i + 1, j));
    else result = i < target.length && target[i] === pattern[j] && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}

// Small alphabets make matches and near-misses both common.
const globArb = fc
  .array(fc.constantFrom("a", "b", "/", "*", "**", "?", "="), { maxLength: 14 })
  .map((parts) => parts.join(""))
  .filter((p) => !p.includes("***"));
const targetArb = fc
  .array(fc.constantFrom("a", "b", "/", "?", "="), { maxLength: 24 })
  .map((parts) => parts.join(""));

describe("permission matcher", () => {
  it("agrees with the reference matcher on generated globs and targets", () => {
    fc.assert(
      fc.property(globArb, targetArb, (glob, target) => {
        expect(globMatches(compileGlob(glob), target)).toBe(referenceMatches(glob, target));
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees with the reference on targets drawn from the pattern itself (mostly matches)", () => {
    // Replace each wildcard of the glob by a generated run: a target the glob should match,
    // sometimes broken by a `/` inside a `*` run.
    const pair = globArb.chain((glob) =>
      fc
        .array(fc.array(fc.constantFrom("a", "b", "/"), { maxLength: 4 }), {
          minLength: 20,
          maxLength: 20,
        })
        .map((fills) => {
          let k = 0;
          const target = glob.replace(/\*\*|\*/g, () => (fills[k++ % fills.length] ?? []).join(""));
          return { glob, target };
        }),
    );
    fc.assert(
      fc.property(pair, ({ glob, target }) => {
        expect(globMatches(compileGlob(glob), target)).toBe(referenceMatches(glob, target));
      }),
      { numRuns: 3000 },
    );
  });

  it("stored patterns: the grammar's forms match as documented", () => {
    const cases: [string, string, boolean][] = [
      ["*", "capability:checkout", true],
      ["**", "shop://order/ord_1/after-sales", true],
      ["checkout", "capability:checkout", true], // a bare id is capability:<id>
      ["capability:checkout", "capability:checkout", true],
      ["capability:track_*", "capability:track_shipment", true],
      ["capability:track_*", "capability:checkout", false],
      ["shop://order/*/after-sales", "shop://order/ord_1/after-sales", true],
      ["shop://order/*/after-sales", "shop://order/a/b/after-sales", false],
      ["shop://order/**", "shop://order/a/b/after-sales", true],
      ["shop://*", "shop://orders?status=paid", true],
      ["shop://*", "shop://order/ord_1", false],
      ["search:*", "search:shop", true],
      ["search:shop", "search:helpdesk", false],
      // A pattern the grammar refuses matches nothing, never everything.
      ["not a pattern at all ***", "not a pattern at all ***", false],
    ];
    for (const [pattern, target, expected] of cases)
      expect([pattern, target, permissionPatternMatches(pattern, target)]).toEqual([
        pattern,
        target,
        expected,
      ]);
  });

  it("does bounded work on 500-character targets with adversarial patterns: at most |target| × |pattern| steps", () => {
    const q = (body: string) => `shop://orders?q=${body}`.padEnd(500, "a").slice(0, 500);
    const adversarial: { pattern: string; target: string }[] = [
      // The finding: many ** around a literal, against a long run of that literal and a near miss at the end.
      { pattern: "shop://**a**a**a**a**a**a**!", target: q("") },
      { pattern: `shop://${"**a".repeat(95)}**!`, target: q("") },
      { pattern: `shop://${"*a".repeat(145)}*!`, target: q("") },
      { pattern: `shop://${"**/".repeat(96)}**!`, target: `shop://${"a/".repeat(250)}`.slice(0, 500) },
      { pattern: `shop://${"*a*b".repeat(72)}`, target: q("ab".repeat(250)) },
      { pattern: `shop://${"**a".repeat(97)}`, target: `shop://${"a".repeat(492)}b` },
    ];
    let worstMs = 0;
    for (const { pattern, target } of adversarial) {
      expect(target.length).toBe(500);
      expect(pattern.length).toBeLessThanOrEqual(MAX_PATTERN_LENGTH);
      const tokens = compileGlob(pattern);
      const counter: MatchCounter = { steps: 0 };
      const started = performance.now();
      const matched = globMatches(tokens, target, counter);
      worstMs = Math.max(worstMs, performance.now() - started);
      expect(counter.steps).toBeLessThanOrEqual(target.length * tokens.length);
      expect(matched).toBe(referenceMatches(pattern, target));
      // Through the stored-pattern entry point too (the one authorize uses).
      expect(permissionPatternMatches(pattern, target)).toBe(matched);
    }
    // Time is reported, not asserted: the step bound above is the guarantee.
    console.log(
      `[permission matcher] worst of ${adversarial.length} adversarial 500-char matches: ${worstMs.toFixed(3)} ms`,
    );
  });

  it("for a fixed pattern the work grows linearly with the target (no backtracking)", () => {
    // Counted, not timed: twice the target, at most about twice the steps.
    const pattern = "shop://**a**a**a**a**a**a**!";
    const tokens = compileGlob(pattern);
    const steps = (n: number) => {
      const counter = { steps: 0 };
      globMatches(tokens, `shop://orders?q=${"a".repeat(n)}`, counter);
      return counter.steps;
    };
    const s250 = steps(250);
    const s500 = steps(500);
    expect(s500).toBeLessThanOrEqual(2 * s250 + tokens.length * 20);
  });
});

describe("permission grammar", () => {
  it("accepts the documented forms, in their canonical spelling", () => {
    const accepted: [string, string][] = [
      ["*", "*"],
      ["**", "**"],
      ["checkout", "capability:checkout"],
      [" capability:checkout ", "capability:checkout"],
      ["capability:track_*", "capability:track_*"],
      ["capability:*", "capability:*"],
      ["shop://order/*/after-sales", "shop://order/*/after-sales"],
      ["shop://orders/", "shop://orders"],
      ["helpdesk://**", "helpdesk://**"],
      ["actions://*/confirm", "actions://*/confirm"],
      ["config://shop", "config://shop"],
      ["search:shop", "search:shop"],
      ["search:*", "search:*"],
      ["capabilities", "capabilities"],
    ];
    for (const [input, canonical] of accepted)
      expect([input, parsePermissionPattern(input)]).toEqual([
        input,
        expect.objectContaining({ ok: true, pattern: canonical }),
      ]);
  });

  it("refuses what would silently match nothing, naming the problem", () => {
    const refused: [string, RegExp][] = [
      ["", /empty/],
      ["not a pattern at all ***", /whitespace/],
      ["shop://***", /\*\*\*/],
      ["x".repeat(301), /at most 300/],
      ["chekout", /neither a capability id .*checkout/],
      ["track_*", /capability:track_\*/],
      ["capability:nope", /no capability "nope"/],
      ["capability:zz*", /matches no capability/],
      ["capability:Checkout", /lowercase/],
      ["ftp://files/*", /unknown scheme "ftp".*shop/],
      ["shop://order/{id}/after-sales", /placeholder, not a pattern: use \* for one path segment/],
      ["shop://order/*/aftersales", /matches no page/],
      ["shop://order//x", /empty segment/],
      ["shop://a#b", /character "#"/],
      // A rule covers a page whatever its query (an exact deny must not give way to ?x=1).
      ["shop://orders?status=*", /whatever its query/],
      ["search:ftp", /unknown scheme/],
      // Never authorized (a denied agent must always be able to ask): a rule on it would do nothing.
      ["signpost://permissions/request", /matches no page/],
    ];
    for (const [input, problem] of refused) {
      const parsed = parsePermissionPattern(input);
      expect([input, parsed.ok]).toEqual([input, false]);
      if (!parsed.ok) expect([input, parsed.problem]).toEqual([input, expect.stringMatching(problem)]);
    }
  });

  it("canonical targets: one spelling for the checker and the gateway", () => {
    expect(canonicalPermissionTarget("checkout")).toEqual({
      ok: true,
      target: "capability:checkout",
      capabilityId: "checkout",
    });
    expect(canonicalPermissionTarget("capability:change_ticket_priority")).toMatchObject({
      target: "capability:change_ticket_priority",
      capabilityId: "change_ticket_priority",
    });
    // The query is no part of what is authorized: every spelling of a page is the page.
    for (const spelling of ["shop://orders?status=paid&page=2", "shop://orders?x=1", "shop://orders/?page=1"])
      expect(canonicalPermissionTarget(spelling)).toEqual({ ok: true, target: "shop://orders" });
    expect(canonicalPermissionTarget("shop://order/ord_1/")).toEqual({
      ok: true,
      target: "shop://order/ord_1",
    });
    // A literal * in data is never a wildcard in a target.
    expect(canonicalPermissionTarget("shop://products?q=*")).toEqual({ ok: true, target: "shop://products" });
    expect(canonicalPermissionTarget("nope")).toMatchObject({ ok: false });
    expect(canonicalPermissionTarget("shop://../x")).toMatchObject({ ok: false });
  });
});
