import { describe, expect, it } from "vitest";
import { matchRoute } from "@/server/browse/browse-routes";
import { parseBrowseUri } from "@/server/connectors/sdk/parse-browse-uri";

/** navigate(uri) takes a model-controlled string: the parser is the boundary that keeps it a route. */
describe("parseBrowseUri", () => {
  it.each([
    ["shop://orders", "shop://orders"],
    ["shop://orders/", "shop://orders"],
    ["shop://orders?status=paid&page=2", "shop://orders?page=2&status=paid"],
    ["helpdesk://tickets?mine=1", "helpdesk://tickets?mine=1"],
    [
      "signpost://permissions/request?target=shop%3A%2F%2Forders&verb=navigate",
      "signpost://permissions/request?target=shop%3A%2F%2Forders&verb=navigate",
    ],
  ])("accepts %s as %s", (input, canonical) => {
    const parsed = parseBrowseUri(input);
    expect(parsed.ok && parsed.value.uri).toBe(canonical);
  });

  it.each([
    ["", "empty URI"],
    ["shop://../etc", "path traversal"],
    ["shop://order/..", "path traversal"],
    ["shop://order/a..b", "path traversal"],
    ["shop://order/%2e%2e", "encoded characters are not allowed in paths"],
    ["shop://order/ord_1%2Fx", "encoded characters are not allowed in paths"],
    ["shop://order//x", 'invalid path segment ""'],
    ["shop://order\\x", "whitespace or control characters"],
    ["shop://order/x y", "whitespace or control characters"],
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
