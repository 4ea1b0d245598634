import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/** Answers that agree with the flow: no dead ends, no flag the flow later contradicts. */
describe("flows end honestly (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("nothing possible now: rejected with the reason, and what is possible instead as next_actions", async () => {
    const client = await w.connect(w.keys.alice);
    const result = await client.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", entity_id: "ord_transit" },
    });
    const s = sc(result);
    expect(s).toMatchObject({ outcome: "rejected", reason: "no_after_sales_available" });
    expect(s.next_actions).toEqual([
      expect.objectContaining({
        tool: "start_action",
        args: { capability: "track_shipment", entity_id: "ord_transit" },
      }),
      // Another order the user names; the refused start ended, so there is nothing to cancel.
      expect.objectContaining({ tool: "start_action", args: { capability: "after_sales" } }),
    ]);
    expect(s.status).toBe("refused");
    // No "fix" that cannot work.
    expect(s.next_actions.some((n) => n.tool === "advance_action")).toBe(false);
    expect(text(result)).toMatch(
      /^- start_action \{"capability":"track_shipment","entity_id":"ord_transit"\} — /m,
    );
  });

  it("the same when the order comes in the patch: the entity is fixed once named", async () => {
    const client = await w.connect(w.keys.alice);
    const s = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", patch: { order_id: "ord_transit" } },
      }),
    );
    expect(s.outcome).toBe("rejected");
    expect(s.next_actions.map((n) => n.tool)).toEqual(["start_action", "start_action"]);
  });

  it("an invalid enum value for a later node is a validation error at start_action, not pending", async () => {
    const client = await w.connect(w.keys.alice);
    const s = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", patch: { kind: "refund", reason: "changed my mind" } },
      }),
    );
    expect(s.outcome).toBe("input_required");
    expect(s.validation_errors).toEqual([expect.objectContaining({ field: "kind", code: "invalid_value" })]);
    expect(s.pending).toEqual(["reason"]);
    expect(s.missing).toEqual(["order_id"]);
  });

  it("a conditional approval is stated as its condition in search, as the flow applies it", async () => {
    const client = await w.connect(w.keys.sam);
    const result = await client.callTool({
      name: "search_capabilities",
      arguments: { query: "assign ticket tkt_9 to a teammate" },
    });
    const hit = (sc(result).results as Array<Record<string, unknown>>).find(
      (r) => r.capability === "assign_ticket",
    );
    expect(hit).toMatchObject({ requires_approval: "conditional" });
    expect(String(hit?.approval_condition)).toMatch(/another team/);
    expect(text(result)).toMatch(/`assign_ticket`.*approval: only when the assignee is on another team/);
    // Same team: the flow indeed asks nobody.
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "assign_ticket", entity_id: "tkt_9", patch: { assignee_id: "tm_sid" } },
      }),
    );
    expect(started.next_actions.find((n) => n.tool === "confirm_action")).toMatchObject({
      requires_user_approval: false,
    });
  });
});

describe("cancel_action: the eighth primitive", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const startCheckout = async (key: string) => {
    const client = await w.connect(key);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: {
            items: [{ product_id: "prod_mug", quantity: 1 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      }),
    );
    return { client, id: String(started.action_id) };
  };

  it("ends an open action: cancelled, its approval voided, audited, nothing left to call", async () => {
    const { client, id } = await startCheckout(w.keys.alice);
    const result = await client.callTool({ name: "cancel_action", arguments: { action_id: id } });
    expect(sc(result)).toMatchObject({ outcome: "applied", status: "cancelled", next_actions: [] });
    expect(text(result)).toMatch(/next: none/);
    // Its first word says it ended (round 25: "ready: … cancelled" read as still live).
    expect(text(result)).toMatch(/^cancelled: /);
    const approvals = await w.db.approval.findMany({ where: { actionId: id } });
    expect(approvals.map((a) => a.status)).toEqual(["voided"]);
    const audit = await w.db.auditEvent.findFirst({ where: { operation: "action.cancelled", actionId: id } });
    expect(audit?.outcome).toBe("applied");
    // A confirm after the cancel is refused; the person cannot approve it either.
    const confirm = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: id, idempotency_key: "after-cancel-1" },
      }),
    );
    expect(confirm.outcome).toBe("rejected");
    const again = sc(await client.callTool({ name: "cancel_action", arguments: { action_id: id } }));
    expect(again).toMatchObject({ outcome: "rejected", reason: "action_finished" });
  });

  it("is refused with a typed outcome once the effect happened", async () => {
    const { client, id } = await startCheckout(w.keys.alice);
    const row = await w.db.action.findUnique({ where: { id } });
    await w.gw.decideApproval(w.person.alice, {
      action_id: id,
      version: row?.version ?? 1,
      decision: "approve",
    });
    const confirmed = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: id, idempotency_key: "cancel-test-1" },
      }),
    );
    expect(confirmed.outcome).toBe("applied");
    const refused = sc(await client.callTool({ name: "cancel_action", arguments: { action_id: id } }));
    expect(refused).toMatchObject({ outcome: "rejected", reason: "already_done" });
    expect((await w.db.action.findUnique({ where: { id } }))?.status).toBe("completed");
  });

  it("another tenant's action is not_found, and stays open", async () => {
    const { id } = await startCheckout(w.keys.alice);
    const gina = await w.connect(w.keys.gina);
    const out = sc(await gina.callTool({ name: "cancel_action", arguments: { action_id: id } }));
    expect(out.outcome).toBe("not_found");
    expect((await w.db.action.findUnique({ where: { id } }))?.status).toBe("awaiting_approval");
  });
});
