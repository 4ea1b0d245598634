import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * A person's rejection reaches an agent that only browses: the action's page names who decided,
 * when, and why, and the confirm form answers with the same reason (issue 8: "Rejections reach
 * the agent with the person's reason in confirm_action, get_context and the action's browse page").
 */
describe("a rejection on the action's browse page", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("names the decider and the reason, and the confirm form is refused with them", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const submitted = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://checkout",
        fields: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      },
    });
    const actionId = /actions\\?:\/\/([A-Za-z0-9_-]+)/.exec(text(submitted))?.[1];
    if (!actionId) throw new Error(`no action link in\n${text(submitted)}`);
    const reason = "Not the office address, ship it home";
    expect(
      await w.gw.decideApproval(w.person.alice, {
        action_id: actionId,
        version: 1,
        decision: "reject",
        reason,
      }),
    ).toMatchObject({ outcome: "applied" });

    const view = await alice.callTool({ name: "navigate", arguments: { uri: `actions://${actionId}` } });
    const markdown = text(view);
    expect(sc(view).outcome).toBe("applied");
    expect(markdown).toMatch(/## Approval/);
    expect(markdown).toMatch(/Status\W+rejected/);
    expect(markdown).toMatch(/Decided by\W+Alice \\?\(member\\?\)/);
    expect(markdown).toContain(reason);

    const confirm = await alice.callTool({
      name: "submit",
      arguments: { uri: `actions://${actionId}/confirm`, fields: { idempotency_key: "k_rejected_1" } },
    });
    expect(sc(confirm)).toMatchObject({ outcome: "rejected" });
    expect(text(confirm)).toContain(reason);
    expect(await w.db.effect.count({ where: { actionId } })).toBe(0);
  });

  it("a form refused on its record says why and that the action ended; its form is the page's own, never the ended action's", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const uri = "shop://order/ord_transit/after-sales";
    const submitted = await alice.callTool({
      name: "submit",
      arguments: { uri, fields: { kind: "refund_only", reason: "too slow" } },
    });
    const markdown = text(submitted);
    expect(sc(submitted)).toMatchObject({ outcome: "rejected" });
    expect(markdown).toMatch(/in transit/);
    expect(markdown).toMatch(/nothing is held or left open, nothing to cancel/);
    // A form on an action that takes nothing more would be a dead end; and no field of this
    // form changes an in-transit order's refusal, so it is not shown again either (set CW).
    expect(markdown).not.toMatch(/uri: actions:\/\//);
    expect(markdown).not.toContain(`uri: ${uri}`);
    expect(markdown).toContain("[Back to order ord_transit](shop://order/ord_transit)");
  });
});
