import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Issue 23: "Which card did I pay for the headphones with?" The order said only `method: card`,
 * get_context knew no payments, and the model went through the start page to the profile. The
 * order's page and its view now name the method that paid it by its label, read from the
 * shop's own payments and the customer's payment methods; an unpaid order's row says what is due.
 */
describe("an order's payment by its method's label", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("the order page and get_context name the card or the store credit that paid", async () => {
    const alice = await w.connect(w.keys.alice);
    const page = async (id: string) =>
      text(await alice.callTool({ name: "navigate", arguments: { uri: `shop://order/${id}` } }));
    const card = await page("ord_transit");
    // One line a person reads (set BW: labelled parts cost ~25 tokens an order page).
    expect(card).toMatch(/^- \*\*payment:\*\* card, Visa •••• 4242 · succeeded · \$261\.00 · pay_transit$/m);
    expect(card).toMatch(/^- \*\*address:\*\* Home: 42 Elm Road, 23456 Shelbyville, US · addr_alice_home$/m);
    expect(await page("ord_exchange")).toMatch(/^- \*\*payment:\*\* balance, Store credit · succeeded · /m);
    // Unpaid: nothing paid it, nothing is said to have.
    expect(await page("ord_pending")).not.toMatch(/Visa|Store credit/);
    // The coupon on the totals line, by its code.
    expect(await page("ord_paid")).toMatch(/^- \*\*totals:\*\* .*− coupon SAVE30 \$30\.00 = \$316\.00$/m);
    const context = text(
      await alice.callTool({ name: "get_context", arguments: { entity: "order", entity_id: "ord_transit" } }),
    );
    expect(context).toMatch(/^ {2}payment: .*method card, paid_with Visa •••• 4242$/m);
  });

  it("support sees the customer's label; another tenant sees no order at all", async () => {
    const sam = await w.connect(w.keys.sam);
    const staff = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } }),
    );
    expect(staff).toContain("card, Visa •••• 4242");
    const gina = await w.connect(w.keys.gina);
    const other = text(
      await gina.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } }),
    );
    expect(other).not.toContain("4242");
  });

  it("an unpaid order's row says what is due", async () => {
    const alice = await w.connect(w.keys.alice);
    const list = text(await alice.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    expect(list).toMatch(/^\| `ord_pending` \| pending_payment · \$156\.50 due \|/m);
  });
});
