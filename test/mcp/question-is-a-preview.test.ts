import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AS (plain host): "What's the cheapest shipping for my cart, and how long would it take?",
 * sent as the checkout form's words, opened a checkout; the model advanced it to see the prices
 * and then cancelled it (four calls where the cart page answers in one). Words that only ask what
 * there is to know are answered as a preview of the change, nothing started, on any capability
 * that changes something; a yes/no question ("Can I return the backpack?") may ask for the change
 * and still starts it.
 */
describe("a question that wants an answer is a preview: nothing is started (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the checkout form's submit of a question creates no action and says why", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "all" });
    const before = await w.db.action.count();
    const page = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://checkout",
          fields: { user_words: "What's the cheapest shipping for my cart, and how long would it take?" },
        },
      }),
    );
    expect(page).toContain(
      "Preview only, nothing was saved \\(the words ask a question, not for a change\\)",
    );
    expect(await w.db.action.count()).toBe(before);
  });

  it("start_action by capability: a question is refused, a yes/no ask still starts", async () => {
    const alice = await w.connect(w.keys.alice);
    const how = await alice.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", intent: "How long do I have to return the backpack?" },
    });
    expect(sc(how)).toMatchObject({ outcome: "preview" });
    expect(text(how)).toContain("the words ask a question, not for a change");
    expect(await w.db.action.count()).toBe(0);
    const can = await alice.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", intent: "Can I return the backpack?" },
    });
    expect(sc(can).outcome).not.toBe("preview");
    // A question beside an ask is no question only.
    const both = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        intent: "What can I return? Return the backpack, the zip broke.",
      },
    });
    expect(sc(both).outcome).not.toBe("preview");
  });
});
