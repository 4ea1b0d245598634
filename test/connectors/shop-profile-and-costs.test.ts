import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Everyday questions a model played through the tools and could not answer in one read: "how
 * much store credit do I have left?" (no page had it), "which orders are on their way, and the
 * tracking number?" (not on the order page) and "what would my cart cost?" (no shipping prices).
 */
describe("shop: profile, tracking and cart costs, each in one read", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const as = async (key: string) => {
    const client = await w.connect(key, { faces: "browse" });
    return async (name: string, args: Record<string, unknown>) =>
      text(await client.callTool({ name, arguments: args }));
  };

  it("shop://profile is the caller's own, on the start page and found by its words", async () => {
    await w.legacy.reset();
    const alice = await as(w.keys.alice);
    expect(await alice("navigate", { uri: "signpost://start" })).toContain("[Profile](shop://profile)");
    const page = await alice("navigate", { uri: "shop://profile" });
    expect(page).toContain("- **name:** Alice Example");
    expect(page).toContain("- **store credit balance:** $1,000.00");
    expect(page).toMatch(/\| `addr_alice_home` \| Home \| 42 Elm Road \| Shelbyville \|/);
    expect(page).toMatch(/\| `pm_alice_card` \| card \| Visa •••• 4242 \|/);
    for (const query of [
      "store credit balance",
      "how much store credit do I have",
      "my addresses",
      "payment methods",
    ])
      expect(await alice("search", { query })).toMatch(
        /^## \[Profile\]\(shop:\/\/profile\) \(opened here\)$/m,
      );
    // "balance" or "my account" alone finds it; a refund to the balance is still about the refund.
    expect(await alice("search", { query: "balance" })).toContain("(shop://profile)");
    expect(await alice("search", { query: "my account" })).toContain("(shop://profile)");
    expect(await alice("search", { query: "refund to my balance" })).not.toContain("(opened here)");

    // Whose account comes from the caller: Sam sees his, and no address names another's.
    const sam = await as(w.keys.sam);
    const his = await sam("navigate", { uri: "shop://profile" });
    expect(his).toContain("Sam Support");
    expect(his).not.toContain("Alice");
    expect(await sam("navigate", { uri: "shop://profile?customer_id=cus_alice" })).not.toContain("Alice");
    expect(await sam("navigate", { uri: "shop://profile/cus_alice" })).not.toContain("Alice");
  });

  it("a shipped order shows its carrier, tracking number, status and last scan on its page and its row", async () => {
    await w.legacy.reset();
    const alice = await as(w.keys.alice);
    const order = await alice("navigate", { uri: "shop://order/ord_transit" });
    expect(order).toMatch(
      /^- \*\*fulfilment:\*\* shipping method: express · carrier: UPS · tracking number: 1Z999AA11001 · shipment status: in_transit · latest scan: Arrived at destination depot, Shelbyville depot, [^\n]+$/m,
    );
    const orders = await alice("navigate", { uri: "shop://orders" });
    expect(orders).toMatch(
      /^\| `ord_transit` \| shipped · UPS 1Z999AA11001 \| Wireless Headphones ×1 \| \$261\.00 \|/m,
    );
    // Only an order on its way carries it, in its status cell: no column for the other rows.
    expect(orders).toMatch(
      /^\| `ord_delivered` \| delivered \| Electric Kettle ×1, Signpost Mug ×2 \| \$194\.00 \|/m,
    );
    expect(orders).toMatch(/^\| id \| status \| items \| total \| ship_to \| created_at \|$/m);
    // A search's order lines say it too, and "on their way" opens the shipped ones, each with it.
    const search = await alice("search", {
      query: "which of my orders are on their way, and what is the tracking number?",
    });
    expect(search).toContain("(shop://orders?status=shipped) (opened here)");
    expect(search).toMatch(/^\| `ord_transit` \| shipped · UPS 1Z999AA11001 \|/m);
    // The one order holding every word is opened (set BO: an order's items match its words).
    const records = await alice("search", { query: "headphones order tracking number" });
    expect(records).toContain("## [Order ord_transit](shop://order/ord_transit) (opened here)");
    expect(records).toMatch(/carrier: UPS · tracking number: 1Z999AA11001/);
  });

  it("the cart lists each shipping method's price, delivery days and the total, per saved address", async () => {
    await w.legacy.reset();
    const alice = await as(w.keys.alice);
    const cart = await alice("navigate", { uri: "shop://cart" });
    expect(cart).toContain(
      "## What it costs with shipping (shipping · delivery · total before coupons, by address)",
    );
    expect(cart).toMatch(/^\| method \| Home \\\(Shelbyville\\\) \| Office \\\(Springfield\\\) \|$/m);
    // The subtotal ($61.00) with each price: "what would it cost with shipping" read off one cell.
    expect(cart).toMatch(
      /^\| standard \| \$5\.00 · 5 days · \$66\.00 in all \| \$5\.00 · 5 days · \$66\.00 in all \|$/m,
    );
    expect(cart).toMatch(
      /^\| express \| \$12\.00 · 2 days · \$73\.00 in all \| \$12\.00 · 2 days · \$73\.00 in all \|$/m,
    );
    // Same-day delivery only inside the warehouse city.
    expect(cart).toMatch(/^\| same_day \| — \| \$15\.00 · same day · \$76\.00 in all \|$/m);
  });
});
