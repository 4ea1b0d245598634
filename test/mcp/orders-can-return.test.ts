import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { row } from "../helpers/table-row";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Issue 23: "which of my delivered orders can I still return something from, and until when?"
 * The listing had `returns_until` and `refundable` only, so the model opened orders one by one to
 * learn what could still go back, and read "refundable $23.00" beside a closed window as a
 * contradiction. One column now says, per order, what can be returned and until when, or why
 * nothing can; the paid money not yet refunded is named as what it is.
 */
describe("orders listing: what can be returned now, in one read", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("can_return names the items and the date, or why nothing can go back", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const nav = async (uri: string) => text(await alice.callTool({ name: "navigate", arguments: { uri } }));
    const plain = await nav("shop://orders");
    // Offered, not shown by default: the listing stays compact.
    expect(plain).toMatch(/^More columns .*\bcan_return\b/m);
    expect(plain).not.toMatch(/\| can_return \|/);
    expect(plain).not.toMatch(/\brefundable\b/);

    const wide = await nav("shop://orders?columns=can_return,paid_not_refunded");
    expect(row(wide, "ord_delivered").can_return).toMatch(
      /^Electric Kettle, Signpost Mug · until \d{4}-\d\d-\d\d$/,
    );
    expect(row(wide, "ord_delivered_old").can_return).toMatch(/^no · window ended \d{4}-\d\d-\d\d$/);
    expect(row(wide, "ord_transit").can_return).toBe("no · not delivered yet");
    expect(row(wide, "ord_cancelled").can_return).toBe("no · cancelled");
    expect(row(wide, "ord_delivered_old").paid_not_refunded).toBe("$23.00");
  });

  it("a search whose words ask about returning adds the column", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(
      await alice.callTool({ name: "search", arguments: { query: "returns for my orders" } }),
    );
    expect(found).toMatch(/Columns added for your words: .*`can_return`/);
    expect(row(found, "ord_delivered_old").can_return).toMatch(/^no · window ended/);
    // Set BK: "returnable" was searched as text the listing cannot filter by.
    const able = text(
      await alice.callTool({ name: "search", arguments: { query: "my delivered orders returnable" } }),
    );
    expect(able).toMatch(/Columns added for your words: .*`can_return`/);
    expect(able).not.toContain("did not filter");
    // Review 60b: "cancellable" is no row's "cancelled" (it showed the cancelled order alone).
    const cancellable = text(
      await alice.callTool({ name: "search", arguments: { query: "which of my orders are cancellable" } }),
    );
    expect(cancellable).not.toContain("whose cells hold `cancellable`");
  });

  it("'which can I still return, and until when?': each possible order with its date and items", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const query = "Which of my delivered orders can I still return something from, and until when?";
    const found = text(await alice.callTool({ name: "search", arguments: { query } }));
    expect(found).toMatch(
      /ord_delivered\]\(shop:\/\/order\/ord_delivered\) — kind `return_refund` \(Items can be returned for a refund until \d{4}-\d\d-\d\d: Electric Kettle, Signpost Mug\)/,
    );
    expect(found).toMatch(
      /ord_delivered_old\]\(shop:\/\/order\/ord_delivered_old\) — The return window closed on/,
    );
  });
});
