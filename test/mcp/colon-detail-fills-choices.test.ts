import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AI: "Buy the whole cart: ship to my office with standard shipping and pay by card" took the
 * items only and asked for the address, shipping and payment the user had named — the words after
 * the colon were read as text the ask carries, which a checkout has no field for. And a submit
 * that also sent those fields answered with a form asking for them again.
 */
describe("words after a colon fill a capability that carries no text (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const words =
    "Buy the whole cart: ship to my office with standard shipping and pay by card. Use a coupon if one applies.";

  it("a start by these words reaches the approval with every choice taken", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({ name: "start_action", arguments: { intent: words } });
    expect(sc(out)).toMatchObject({ status: "awaiting_approval", capability: "checkout" });
    expect(text(out)).toMatch(
      /taken from the words: .*address_id = addr_alice_office, shipping_method = standard, coupon_code = SAVE5, payment_type = card/,
    );
  });

  it("the checkout form's submit with these words does the same", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: "shop://checkout", fields: { user_words: words } },
      }),
    );
    expect(page).toContain("checkout · awaiting_approval · version 1 · step ");
    expect(page).toContain("**Ship to:** Office");
    expect(page).toContain("**Pay with:** Visa");
  });

  it("fields sent for later steps are said as set, not asked again; a closing 'please' is no ask", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const page = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://checkout",
          fields: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            shipping_method: "standard",
            payment_type: "card",
            user_words: "buy two mugs, please",
          },
        },
      }),
    );
    expect(page).toContain("ADDRESS needs address_id");
    expect(page).toMatch(/set already \\\(send one again to change it\\\): [^\n]*shipping_method/);
    const form = page.slice(page.indexOf("## Form"));
    expect(form).toContain("address_id:");
    expect(form).not.toContain("shipping_method:");
    expect(form).not.toContain("payment_type:");
    expect(page).not.toContain('"please"');
  });

  it("a capability with a field for the user's text still reads the words after its colon as that text", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = text(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Resolve the headphones ticket: the parcel was found and is on its way" },
      }),
    );
    expect(out).toContain("tkt_2");
    expect(out).not.toContain("tkt_6");
  });

  it("after a colon, words for a change nobody approves are never run at once (review 55)", async () => {
    // A reading of any verb and object there moved the order home at once on each of these.
    const alice = await w.connect(w.keys.alice);
    for (const detail of [
      "ask me before moving it home",
      "send it home next month, not now",
      "move it to home, or leave it, your call",
    ]) {
      await w.legacy.reset();
      const out = await alice.callTool({
        name: "start_action",
        arguments: { intent: `Change the delivery address of my lamp order: ${detail}` },
      });
      expect(sc(out).outcome, detail).not.toBe("applied");
      const order = await legacyRecord<{ address: { id: string } }>(w, "orders/ord_paid");
      expect(order.address.id, detail).toBe("addr_alice_office");
    }
  });
});
