import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Issue 23: search "Logo Tee L" answered "none holds every word" above the exact product. The
 * catalog's text filter matches its query as one substring ("logo tee l" is not in "Logo Tee
 * (L)"), so the words were then asked one at a time and "l" matched every name with the letter.
 * Records are now matched word by word as whole tokens (a short word only whole), sizes said as
 * people say them are the shop's own words, a possessive's "s" is no word of the pages, and the
 * organisation's name is matched by whole words. Real MCP client over HTTP and the legacy service.
 */
describe("a search naming a product and its size finds that variant", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const records = (page: string) =>
    [...(page.split("## Records")[1] ?? "").matchAll(/^- \[([^\]]*?)\]\(([^)]+)\)/gm)].map((m) => m[2]);
  // The one record the words fit is opened in place (issue 23): its page is the record shown.
  const shown = (page: string) => [
    ...records(page),
    ...[...page.matchAll(/^## \[[^\]]*\]\(([^)]+)\) \(opened here\)$/gm)].map((m) => m[1]),
  ];

  it.each([
    ["Logo Tee L", "prod_tee_l"],
    ["Logo Tee size L", "prod_tee_l"],
    ["Logo Tee large", "prod_tee_l"],
    ["logo tee in large", "prod_tee_l"],
    ["tee XL", "prod_tee_xl"],
    ["extra large logo tee", "prod_tee_xl"],
    ["Logo Tee S", "prod_tee_s"],
    ["Logo Tee M", "prod_tee"],
    ["Hoodie M", "prod_hoodie"],
  ])("%s → the one variant, no 'none holds every word', no other record", async (query, id) => {
    const alice = await w.connect(w.keys.alice);
    const page = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(page).not.toContain("none holds every word");
    expect(shown(page), page).toEqual([`shop://product/${id}`]);
    // A one-letter word matched no page by a possessive's "s", nor the organisation by a letter.
    expect(page).not.toContain("## Pages");
    expect(page).not.toContain("your organisation");
  });

  it("the catalog listing a search opens for the words narrows to the variant too", async () => {
    const alice = await w.connect(w.keys.alice);
    const page = text(await alice.callTool({ name: "search", arguments: { query: "logo tee L products" } }));
    expect(page).not.toContain("matches every word");
    expect([...page.matchAll(/^\| `(prod_[a-z_]+)` \|/gm)].map((m) => m[1])).toEqual(["prod_tee_l"]);
  });

  it("the product's name alone still lists every size; a word no record holds still says so", async () => {
    const alice = await w.connect(w.keys.alice);
    const all = text(await alice.callTool({ name: "search", arguments: { query: "Logo Tee" } }));
    expect(records(all)).toEqual(
      ["prod_tee_l", "prod_tee", "prod_tee_s", "prod_tee_xl"].map((id) => `shop://product/${id}`),
    );
    const none = text(await alice.callTool({ name: "search", arguments: { query: "Logo Tee purple" } }));
    expect(none).toContain("none holds every word");
  });
});
