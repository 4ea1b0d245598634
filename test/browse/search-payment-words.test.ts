import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** The order ids of a listing's rows, in the order shown. */
const orderRows = (markdown: string) => [...markdown.matchAll(/^\| `(ord_\w+)` \|/gm)].map((m) => m[1]);

/**
 * Set K3: asked "Which of my orders did I pay from my store credit?", a model's search opened the
 * profile (its keywords hold "store credit"), then it read the orders listing twice for a payment
 * column it has not by default, and `balance` was nowhere said to be store credit. The orders
 * listing filters by how an order was paid, people's words for it name the filter, and a listing
 * named by its records and one of its values wins over a page that only holds a word.
 */
describe("search: how an order was paid, in people's words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (query: string) => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    return text(await alice.callTool({ name: "search", arguments: { query } }));
  };

  it("'orders I paid from my store credit' opens the orders the balance paid, in one call", async () => {
    const page = await search("Which of my orders did I pay from my store credit?");
    expect(page).toMatch(/^## \[Orders\]\(shop:\/\/orders\?payment_method=balance\) \(opened here\)$/m);
    expect(page).not.toContain("(shop://profile) (opened here)");
    expect(page).toMatch(/^Filtered: payment method = balance \\?\(store credit\\?\)\.$/m);
    expect(orderRows(page)).toEqual(["ord_exchange"]);
    // Each row says how it was paid, store credit by name; no word was left to search the rows.
    expect(page).toMatch(/\| payment_method \|/);
    expect(page).toMatch(/\| balance \\?\(store credit\\?\) \|/);
    expect(page).not.toMatch(/did not filter|Only rows with/);
  });

  it("'paid' beside how it was paid is not the status paid; a card is not store credit", async () => {
    const credit = await search("orders I paid with store credit");
    expect(credit).toMatch(/\(shop:\/\/orders\?payment_method=balance\) \(opened here\)/);
    expect(credit).not.toMatch(/status=paid|names a status/);
    expect(orderRows(credit)).toEqual(["ord_exchange"]);
    const card = await search("which of my orders did I pay by credit card?");
    expect(card).toMatch(/\(shop:\/\/orders\?payment_method=card\) \(opened here\)/);
    expect(card).not.toMatch(/status=paid|payment_method=balance/);
    const rows = orderRows(card);
    expect(rows).toContain("ord_paid");
    expect(rows).toContain("ord_transit");
    // Store credit paid this one; nothing paid the unpaid and the cancelled ones.
    expect(rows).not.toContain("ord_exchange");
    expect(rows).not.toContain("ord_pending");
    expect(rows).not.toContain("ord_cancelled");
  });

  it("'what's my store credit balance?' still reads the profile, which says it is store credit", async () => {
    const page = await search("What's my store credit balance?");
    expect(page).toMatch(/^## \[Profile\]\(shop:\/\/profile\) \(opened here\)$/m);
    expect(page).toMatch(/^- \*\*store credit balance:\*\* \$1,000\.00$/m);
    expect(page).toMatch(/\| `pm_alice_balance` \| balance \| Store credit \|/);
    expect(page).not.toContain("(opened here)\n\nFiltered:");
  });

  it("the listing filtered by it says each row's payment and names balance as store credit; unfiltered it adds no column", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const open = async (uri: string) => text(await alice.callTool({ name: "navigate", arguments: { uri } }));
    const balance = await open("shop://orders?payment_method=balance");
    expect(balance).toMatch(/^Filtered: payment_method = balance \\?\(store credit\\?\)\.$/m);
    expect(orderRows(balance)).toEqual(["ord_exchange"]);
    const all = await open("shop://orders");
    expect(orderRows(all).length).toBe(8);
    expect(all).toMatch(/^\| id \| status \| items \| total \| ship_to \| created_at \|$/m);
    // Offered, not shown: one word on the line of more columns.
    expect(all).toMatch(/^More columns .*\bpayment_method\b/m);
    expect(await open("shop://orders?payment_method=store_credit")).toMatch(/invalid_filter/);
  });
});
