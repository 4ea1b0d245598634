import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCapability } from "@/server/connectors/sdk/define-capability";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const USER_CHOICE =
  "- coupon_code — optional: offer it in your reply, don't stop to ask; apply only on their word (or if they asked for the cheapest): `SAVE5` $5.00";
/** While fields are still asked for, the offer rides on that question (sets L, M, N: one call more each). */
const WITH_QUESTION =
  "- coupon_code — optional: ask with the missing fields; apply only on their word (or if they asked for the cheapest): `SAVE5` $5.00";

/**
 * A coupon changes what is paid, so like a shipping method it is the user's choice; unlike one it
 * is optional. The connector declares it so (optInChoices on its node): the agent reads that the
 * coupons offered are the user's to take, from search to the approval, and none is applied on
 * the model's own pick. Read as an agent reads it: the text block over a real MCP client.
 * Sets L, M and N: told "apply one only on their word", the played models stopped a ready checkout
 * to ask, then advanced with the coupon; the line now says how to offer it without a call of its
 * own: with the question the missing fields need, or, with nothing left to ask, in the reply.
 */
describe("a coupon offered at checkout is the user's choice (real legacy, real MCP client)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await w.legacy.reset();
  });
  afterAll(async () => w?.close());

  const patch = {
    items: [{ product_id: "prod_mug", quantity: 2 }],
    address_id: "Office",
    shipping_method: "standard",
    payment_type: "balance",
  };

  it("search names it up front; the approval-ready checkout lists the coupons as the user's, applies none", async () => {
    const client = await w.connect(w.keys.alice);
    const found = text(
      await client.callTool({ name: "search_capabilities", arguments: { query: "buy two mugs" } }),
    );
    // Beside from_cart, the other optional choice that is the user's ("from my cart").
    expect(found).toMatch(/`checkout`.*only on the user's word \(optional\): from_cart, coupon_code;/);

    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch },
    });
    expect(sc(started).status).toBe("awaiting_approval");
    expect(text(started)).toContain(USER_CHOICE);
    // Nothing was applied for the user: no coupon term in what they approve.
    const sum = (sc(started).summary as { sum: { terms: Array<{ label: string }> } }).sum;
    expect(sum.terms.map((t) => t.label)).toEqual(["items", "shipping"]);
    // The same on a later read of the action.
    const ctx = await client.callTool({
      name: "get_context",
      arguments: { action_id: sc(started).action_id as string },
    });
    expect(text(ctx)).toContain(USER_CHOICE);
  });

  it("while a field is still missing, the offer goes with that question, and both come back in one advance", async () => {
    const client = await w.connect(w.keys.alice);
    const { payment_type: _asked, ...rest } = patch;
    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: rest },
    });
    expect(sc(started)).toMatchObject({ status: "open", missing: ["payment_type"] });
    expect(text(started)).toContain(WITH_QUESTION);
    const done = await client.callTool({
      name: "advance_action",
      arguments: {
        action_id: sc(started).action_id,
        version: sc(started).version,
        patch: { payment_type: "balance", coupon_code: "SAVE5" },
      },
    });
    expect(sc(done).status).toBe("awaiting_approval");
    expect(text(done)).toContain("coupon SAVE5 $5.00");
  });

  it("once the user named one, it is theirs: no longer offered as a question", async () => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: { ...patch, coupon_code: "SAVE5" } },
    });
    expect(text(started)).not.toContain("coupon_code — optional");
    expect(text(started)).toContain("coupon SAVE5 $5.00");
  });

  it("a connector declaring an opt-in field its node does not own is refused at load", () => {
    expect(() =>
      defineCapability({
        id: "x_buy",
        connector: "x",
        title: "Buy",
        description: "d",
        trigger: { use: "u", avoid: "a" },
        appliesTo: { entity: "Thing" },
        prerequisites: [],
        sideEffects: [],
        policy: { effect: "read", permission: "x.read", approval: "never", audit: "full" },
        nodes: [
          { id: "A", description: "a", fields: { code: z.string().optional() }, optInChoices: ["coupon"] },
        ],
      } as never),
    ).toThrow(/declares opt-in choice coupon, not one of its fields/);
  });
});
