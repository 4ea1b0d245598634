import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set CQ: "my orders with more than one item" listed five of Alice's eight orders under Records,
 * with nothing saying more were found; the model saw it was cut only from an earlier answer and
 * read every order again. Records cut at five say how many more, and the listing holding them.
 */
describe("search: records cut at a few say how many more", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("five of eight orders, then the three more and where they are", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({ name: "search", arguments: { query: "my orders with more than one item" } }),
    );
    const records = page.split("## Records")[1]?.split("\n## ")[0] ?? "";
    expect(records.match(/^- \[Order /gm)).toHaveLength(5);
    // Every order, the words naming none an order holds: not "found" by them (review 66b).
    expect(records).toContain("- … 3 more of the 8 orders (all in [Orders](shop://orders))");
  });

  it("five or fewer found: no such line", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(await alice.callTool({ name: "search", arguments: { query: "my lamp order" } }));
    expect(page).not.toContain("more of the");
  });
});
