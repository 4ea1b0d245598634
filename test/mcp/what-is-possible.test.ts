import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23 (played): a refusal said only what is not possible ("No capability does what these
 * words ask"), and the order page's "requires approval: true" beside an address change that
 * needs none read as if every change on it did. Now the refusal on a record lists what can be
 * started there (one call each), and the page says which changes wait for the user and which run.
 */
describe("what is possible on a record (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("words no capability does, on a record: the starts allowed there, one call each, and nothing started", async () => {
    const alice = await w.connect(w.keys.alice);
    const before = await w.db.action.count();
    const out = await alice.callTool({
      name: "start_action",
      arguments: { intent: "take one item off my unshipped order", entity_id: "ord_paid" },
    });
    const s = sc(out);
    expect(s).toMatchObject({ outcome: "rejected", reason: "no_capability_fits" });
    expect(text(out)).toMatch(
      /^rejected: No capability does what these words ask on ord_paid; possible there now/,
    );
    // What the paid order allows, by its state: a refund (approved) or an address change; not
    // paying it again, not tracking a parcel that has not shipped.
    expect(s.next_actions.map((n) => (n as { args?: { capability?: string } }).args?.capability)).toEqual([
      "after_sales",
      "change_delivery_address",
    ]);
    expect(text(out)).toContain(
      'start_action {"capability":"change_delivery_address","entity_id":"ord_paid"} — Change delivery address (no approval: start_action runs it)',
    );
    expect(text(out)).toMatch(
      /"after_sales","entity_id":"ord_paid"\} — After-sales request \(approval: the user\)/,
    );
    expect(await w.db.action.count()).toBe(before);
    // An id the words quote is the record too; an unpaid order's own starts.
    const quoted = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { intent: "take one item off order ord_pending" },
      }),
    );
    expect(
      quoted.next_actions.map((n) => (n as { args?: { capability?: string } }).args?.capability),
    ).toEqual(["pay_order", "change_delivery_address", "cancel_unpaid_order"]);
    // Without a record, the reading path as before.
    const listing = sc(
      await alice.callTool({ name: "start_action", arguments: { intent: "List my orders." } }),
    );
    expect(listing.next_actions).toEqual([]);
  });

  it("the order page says which changes wait for the user's approval and which run at once, once, beside each form", async () => {
    const alice = await w.connect(w.keys.alice);
    const paid = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
    );
    // Each form's line says its own rule; no page-wide line restates it (set F's model read a
    // page-wide "requires approval: true" as true of every form).
    expect(paid).toMatch(/^- \[after_sales\]\(.* · approval: the user$/m);
    expect(paid).toMatch(/^- \[change_delivery_address\]\(.* · no approval$/m);
    // What "no approval" means is said once, under the lines.
    expect(paid).toMatch(
      /it runs at once unless someone must approve \(or start_action the line's capability/,
    );
    expect(paid).not.toMatch(/requires approval|\*\*approval:\*\*/);
    const pending = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_pending" } }),
    );
    expect(pending).toMatch(/^- \[pay_order\]\(.* · approval: the user$/m);
    expect(pending).toMatch(/^- \[cancel_unpaid_order\]\(.* · no approval$/m);
  });
});
