import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BA (played): "Can I still cancel my headphones order?" (shipped) tied the after-sales
 * request with the unpaid order's cancellation, and the answer was "several capabilities match";
 * the model read the order's page for the reason. Where the record the words name can take none
 * of the near matches, the best starts and its refusal says why; nothing is created.
 */
describe("a record no near match can take: the best says why (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a dry run and a start each say why, and leave nothing", async () => {
    const alice = await w.connect(w.keys.alice);
    const intent = "Can I still cancel my headphones order?";
    const dry = await alice.callTool({ name: "start_action", arguments: { intent, dry_run: true } });
    expect(sc(dry).reason).not.toBe("ambiguous_intent");
    expect(text(dry)).toMatch(/in transit/);
    expect(text(dry)).toMatch(
      /picked_because: ord_transit can take none of after_sales, cancel_unpaid_order now/,
    );
    const before = await w.db.action.count();
    const started = await alice.callTool({ name: "start_action", arguments: { intent } });
    expect(sc(started).reason, text(started)).not.toBe("ambiguous_intent");
    expect(sc(started).status).not.toBe("awaiting_approval");
    expect(text(started)).toMatch(/in transit/);
    // A refused start holds nothing open.
    const open = await w.db.action.count({ where: { status: { in: ["open", "awaiting_approval"] } } });
    expect(open).toBe(0);
    expect(await w.db.action.count()).toBeGreaterThanOrEqual(before);
  });
});
