import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Issue 23 (set D, task 1): "What would everything in my cart cost with shipping to my home?"
 * got only checkout from search_capabilities, and the model went through checkout's steps to read
 * a price (2 calls). Words that only ask get the read that answers them first, in the same call;
 * a request to do something gets the capabilities alone.
 */
describe("search_capabilities: a question's read comes first", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a question about the cart's cost answers with the cart, shipping and totals, then the capabilities", async () => {
    await w.legacy.reset();
    const alice = await w.connect(w.keys.alice);
    const found = text(
      await alice.callTool({
        name: "search_capabilities",
        arguments: { query: "What would everything in my cart cost with shipping to my home?" },
      }),
    );
    expect(found.startsWith("Your words ask a question; this read answers it (nothing changes):")).toBe(true);
    expect(found).toContain("[Cart](shop://cart) (opened here)");
    // The subtotal ($61.00) and standard shipping home ($5.00), summed.
    expect(found).toMatch(/^\| standard \| \$5\.00 · 5 days · \$66\.00 in all \|/m);
    // No line saying the words filtered nothing: the page says cost, shipping and home itself.
    expect(found).not.toContain("did not filter");
    expect(found.indexOf("(opened here)")).toBeLessThan(found.indexOf("`checkout`"));
  });

  it("a question about when something happened answers with that time", async () => {
    const alice = await w.connect(w.keys.alice);
    const found = text(
      await alice.callTool({
        name: "search_capabilities",
        arguments: { query: "When was my backpack delivered?" },
      }),
    );
    expect(found).toMatch(/^\| `ord_shipdiff` \|.*\| 20\d\d-\d\d-\d\d, \d+ days ago \|$/m);
  });

  it("words asking for a change get the capabilities alone; a key without browse gets no page", async () => {
    const alice = await w.connect(w.keys.alice);
    const buy = text(
      await alice.callTool({
        name: "search_capabilities",
        arguments: { query: "buy everything in my cart" },
      }),
    );
    expect(buy).not.toContain("opened here");
    expect(buy).toContain("`checkout`");
    const actionsOnly = await w.connect(w.keys.alice, { faces: "actions" });
    const asked = text(
      await actionsOnly.callTool({
        name: "search_capabilities",
        arguments: { query: "What would everything in my cart cost with shipping to my home?" },
      }),
    );
    expect(asked).not.toContain("opened here");
  });
});
