import { afterAll, beforeAll, beforeEach, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

let w: McpWorld;
beforeAll(async () => {
  w = await createMcpWorld("sqlite");
}, 60_000);
afterAll(async () => {
  await w?.close();
});
beforeEach(() => w.legacy.reset());

it("prints", async () => {
  const c = await w.connect(w.keys.alice, { faces: "browse" });
  const fields = {
    user_words: "Buy two Logo Tees in size M, express shipping to my home, paid by card.",
    items: [{ product_id: "prod_tee", quantity: 2 }],
    from_cart: false,
    address_id: "addr_alice_home",
    shipping_method: "express",
    payment_type: "card",
    coupon_code: "SAVE5",
  };
  const out = await c.callTool({ name: "submit", arguments: { uri: "shop://checkout", fields } });
  console.log(
    text(out)
      .split("\n")
      .filter((l) => /also asked|taken from/.test(l))
      .join("\n"),
  );
  const { payment_type: _, ...rest } = fields;
  const out2 = await c.callTool({ name: "submit", arguments: { uri: "shop://checkout", fields: rest } });
  console.log(
    "---",
    text(out2)
      .split("\n")
      .filter((l) => /also asked|taken from/.test(l))
      .join("\n"),
  );
}, 60_000);
