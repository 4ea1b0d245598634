import { describe, expect, it } from "vitest";
import { matchRoute } from "@/server/browse/browse-routes";
import { encodeSegment, parseBrowseUri, segmentValue } from "@/server/connectors/sdk/parse-browse-uri";

/** navigate(uri) takes a model-controlled string: the parser is the boundary that keeps it a route. */
describe("parseBrowseUri", () => {
  it.each([
    ["shop://orders", "shop://orders"],
    ["shop://orders/", "shop://orders"],
    ["shop://orders?status=paid&page=2", "shop://orders?page=2&status=paid"],
    ["helpdesk://tickets?mine=1", "helpdesk://tickets?mine=1"],
    // A space in a query value is the value a person typed, not a refusal.
    ["helpdesk://tickets?q=log in", "helpdesk://tickets?q=log%20in"],
    ["helpdesk://tickets?q=log in&mine=1", "helpdesk://tickets?mine=1&q=log%20in"],
    [
      "signpost://permissions/request?target=shop%3A%2F%2Forders&verb=navigate",
      "signpost://permissions/request?target=shop%3A%2F%2Forders&verb=navigate",
    ],
    // Any value but a separator or a dot-segment is one segment, in one canonical spelling.
    ["shop://order/-9007199254740991", "shop://order/-9007199254740991"],
    ["shop://order/My%20file%3f", "shop://order/My%20file%3F"],
    ["shop://order/%6Frd_1", "shop://order/ord_1"],
    ["shop://order/a~b", "shop://order/a%7Eb"],
    ["shop://order/.env", "shop://order/%2Eenv"],
    ["shop://order/%C3%A9t%C3%A9", "shop://order/%C3%A9t%C3%A9"],
  ])("accepts %s as %s", (input, canonical) => {
    const parsed = parseBrowseUri(input);
    expect(parsed.ok && parsed.value.uri).toBe(canonical);
  });

  it.each([
    ["", "empty URI"],
    ["shop://../etc", "path traversal"],
    ["shop://order/..", "path traversal"],
    ["shop://order/a..b", "path traversal"],
    ["shop://order/%2e%2e", "path traversal"],
    ["shop://order/a%2E%2Eb", "path traversal"],
    ["shop://order/ord_1%2Fx", "a path segment cannot hold / or \\"],
    ["shop://order/ord_1%5Cx", "a path segment cannot hold / or \\"],
    ["shop://order/x%0Ay", "whitespace or control characters"],
    ["shop://order/x%E0%A4", "malformed path encoding"],
    ["shop://order/x%zz", 'invalid path segment "x%zz"'],
    ["shop://order/x:y", 'invalid path segment "x:y"'],
    [`shop://order/${"a".repeat(201)}`, "path segment too long"],
    ["shop://order//x", 'invalid path segment ""'],
    ["shop://order\\x", "whitespace or control characters"],
    ["shop://order/x y", "whitespace or control characters"],
    ["shop://order/x y?q=a", "whitespace or control characters"],
    ["helpdesk://tickets?q=log\tin", "whitespace or control characters"],
    ["helpdesk://tickets?q=log\nin", "whitespace or control characters"],
    ["file:///etc/passwd", "unknown scheme file"],
    ["https://example.com", "unknown scheme https"],
    ["SHOP://orders", "not a scheme://path URI"],
    ["shop:orders", "not a scheme://path URI"],
    ["shop://orders?$where=1", 'invalid query key "$where"'],
    ["shop://orders?-x=1", 'invalid query key "-x"'],
    ["shop://orders?q=%E0%A4%A", "malformed query encoding"],
    [`shop://${"a".repeat(1001)}`, "URI too long"],
  ])("refuses %s (%s)", (input, problem) => {
    expect(parseBrowseUri(input)).toEqual({ ok: false, problem });
  });

  it("encodeSegment and segmentValue round-trip any value a segment may stand for, and refuse the rest", () => {
    for (const value of ["-9007199254740991", "My file?", "a#b&c=d", "100%", "été", ".env", "x*y", "ord_1"]) {
      const segment = encodeSegment(value);
      expect(segment, value).toMatch(/^(?:[A-Za-z0-9_-]|%[0-9A-F]{2})(?:[A-Za-z0-9_.-]|%[0-9A-F]{2})*$/);
      expect(segmentValue(segment as string)).toBe(value);
      const parsed = parseBrowseUri(`shop://order/${segment}`);
      expect(parsed.ok && parsed.value.segments).toEqual(["order", segment]);
    }
    for (const value of ["", ".", "..", "a..b", "a/b", "a\\b", "x\ny", "a".repeat(201)])
      expect(encodeSegment(value), JSON.stringify(value)).toBeNull();
  });

  it("a segment already in canonical form is kept as it is, as decoding and encoding it would keep it", () => {
    // Segments of plain characters skip the decode-check-encode (most of a parse): at the edges
    // of that shortcut, the answer is still what decoding and encoding give.
    const plain = "Az09_.-";
    let seed = 11;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const samples = [
      "-5",
      "_x",
      "a.b",
      "a-",
      "x.",
      ".x",
      "a..b",
      "a".repeat(200),
      "a".repeat(201),
      "b".repeat(199),
    ];
    for (let n = 0; n < 500; n++) {
      let raw = "";
      for (let i = 0, length = 1 + (next() % 6); i < length; i++) raw += plain[next() % plain.length];
      samples.push(raw);
    }
    for (const raw of samples) {
      const parsed = parseBrowseUri(`shop://order/${raw}`);
      const encoded = encodeSegment(raw);
      if (raw === "." || raw.includes(".."))
        expect(parsed, raw).toEqual({ ok: false, problem: "path traversal" });
      else if (encoded === null) expect(parsed.ok, raw).toBe(false);
      else expect(parsed.ok && parsed.value.segments[1], raw).toBe(encoded);
    }
  });

  it("matches routes by pattern and captures parameters", () => {
    const parsed = parseBrowseUri("shop://order/ord_paid/after-sales");
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(matchRoute(parsed.value)).toMatchObject({
      route: { pattern: "shop://order/{id}/after-sales" },
      match: { params: { id: "ord_paid" } },
    });
    const unknown = parseBrowseUri("shop://order/ord_paid/nothing");
    if (!unknown.ok) throw new Error(unknown.problem);
    expect(matchRoute(unknown.value)).toBeNull();
  });
});
