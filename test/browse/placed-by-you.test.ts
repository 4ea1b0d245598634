import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { checkoutToConfirmation } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * "Cancel the order I placed today": the order list and the order page mark the orders an action
 * of this same agent placed (from the action store: the effect named the order it made). Another
 * agent of the same person, another person's agent and another tenant see no mark.
 */
describe("orders this agent placed are marked (real legacy, real MCP client)", () => {
  let w: McpWorld;
  let placed: string;
  let secondKey: string;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await w.legacy.reset();
    const started = await checkoutToConfirmation(w);
    const decided = await w.gw.decideApproval(w.person.alice, {
      action_id: started.action_id as string,
      version: started.version as number,
      decision: "approve",
    });
    expect(decided.outcome).toBe("applied");
    const row = await w.db.action.findUnique({ where: { id: started.action_id as string } });
    placed = row?.entityId as string;
    expect(placed).toMatch(/^ord_/);
    // An action on an existing order (a refund) does not make it "placed by you".
    const refund = await w.gw.startAction(w.agent.alice, {
      capability: "after_sales",
      entity_id: "ord_paid",
      patch: { kind: "refund_only", reason: "changed my mind" },
    });
    const refunded = await w.gw.decideApproval(w.person.alice, {
      action_id: refund.action_id as string,
      version: refund.version as number,
      decision: "approve",
    });
    expect(refunded.outcome).toBe("applied");
    // A second agent key of the same person (another host, another session).
    const minted = mintAgentKey();
    const alice = await w.db.user.findFirstOrThrow({ where: { email: "alice@acme.test" } });
    await w.db.agent.create({
      data: {
        tenantId: "acme",
        name: "Alice's other agent",
        userId: alice.id,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    secondKey = minted.key;
  });
  afterAll(async () => w?.close());

  const rowOf = (page: string, id: string) =>
    page.split("\n").find((l) => l.startsWith(`| \`${id}\` |`)) ?? "";

  it("the agent that placed it sees it marked in the list and on its page; nothing else is", async () => {
    const client = await w.connect(w.keys.alice);
    const list = text(await client.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    // One line above the rows, not a column that read "—" (as if not hers) on every other order.
    expect(list).toContain(`Your orders. Placed through this assistant: \`${placed}\`. Newest first.`);
    expect(list).not.toContain("placed_by");
    expect(rowOf(list, placed)).not.toBe("");
    // The seeded orders were not placed by this agent, the one it refunded included.
    expect(list).not.toMatch(/Placed through this assistant:[^\n]*ord_paid/);
    // Set BW: money that came back is said beside the status, so "what have I spent" needs no refund columns.
    expect(rowOf(list, "ord_paid")).toMatch(
      /^\| `ord_paid` \| [a-z_]+ · refunded \$316\.00 · coupon SAVE30 −\$30\.00 \|/,
    );
    expect(rowOf(list, "ord_delivered")).not.toContain("refunded");
    const page = text(
      await client.callTool({ name: "navigate", arguments: { uri: `shop://order/${placed}` } }),
    );
    expect(page).toContain("**placed by:** you");
    const other = text(
      await client.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
    );
    expect(other).not.toContain("placed by");
  });

  it("the action face: after-sales with no order named offers the orders, the one it placed marked", async () => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", intent: "cancel one of my orders" },
    });
    const orders = (
      started.structuredContent as { options?: { orders?: Array<{ id: string; placed_by?: string }> } }
    ).options?.orders;
    expect(orders?.find((o) => o.id === placed)?.placed_by).toBe("you");
    expect(orders?.filter((o) => o.placed_by).map((o) => o.id)).toEqual([placed]);
    expect(text(started)).toMatch(new RegExp(`${placed}.*placed_by: you|${placed}.*\\| you \\|`));
    // Another agent of the same person sees the same orders unmarked.
    const other = await (await w.connect(secondKey)).callTool({
      name: "start_action",
      arguments: { capability: "after_sales", intent: "cancel one of my orders" },
    });
    expect(JSON.stringify(other.structuredContent)).not.toContain("placed_by");
  });

  it("another agent of the same person, an admin's agent of the tenant and another tenant see no mark", async () => {
    for (const key of [secondKey, w.keys.adam]) {
      const client = await w.connect(key);
      const list = text(await client.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
      expect(list).not.toContain("placed_by");
      expect(list).not.toContain("Placed through");
      const page = text(
        await client.callTool({ name: "navigate", arguments: { uri: `shop://order/${placed}` } }),
      );
      expect(page).not.toContain("placed by");
    }
    expect(await w.gw.createdByAgent(w.agent.gina, "Order", [placed])).toEqual({});
    // A person in the console is no agent: nothing of theirs is "placed by you" here.
    expect(await w.gw.createdByAgent(w.person.alice, "Order", [placed])).toEqual({});
    expect(await w.gw.createdByAgent(w.agent.alice, "Order", [placed])).toEqual({
      [placed]: expect.any(String),
    });
  });
});
