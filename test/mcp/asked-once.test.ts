import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sameCreatedAt } from "../helpers/same-created-at";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set CJ (played, both hosts): "Switch the delivery of my unpaid order to my home address." tied
 * with paying the order ("unpaid" in the paying capability's words), then asked which order of
 * one ("the user's words (not paid) leave 1 order …; ask the user which one"), and once the agent
 * sent it, asked again ("ask the user whether they mean ord_pending"): four calls for one change.
 * A state word inside the record's name tells which record, not what to do; and the record sent
 * from those the last answer said to ask about (and named) is the user's answer. Seed:
 * ord_pending is Alice's one order waiting for payment; ord_paid is paid, not shipped; both go
 * to the office.
 */
describe("a record asked about once (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const addressOf = async (id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/orders/${id}`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { address?: { id?: string } }
    ).address?.id;

  it("'my unpaid order' starts the address change, and the order sent after the ask runs it: asked once", async () => {
    const client = await w.connect(w.keys.alice);
    const start = await client.callTool({
      name: "start_action",
      arguments: { intent: "Switch the delivery of my unpaid order to my home address." },
    });
    const s = sc(start) as Json;
    expect(s, text(start)).toMatchObject({ capability: "change_delivery_address" });
    // An "un-" word alone never names the record of a change nobody approves (review 65: "…: no
    // wait, the paid one", "my wife's unpaid order"): the user is asked, once.
    expect(text(start)).toMatch(/ord_pending[^\n]*ask the user which one/);
    const advanced = await client.callTool({
      name: "advance_action",
      arguments: { action_id: s.action_id, version: s.version, patch: { order_id: "ord_pending" } },
    });
    expect(text(advanced)).not.toMatch(/ask the user/);
    expect(sc(advanced)).toMatchObject({ status: "completed" });
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
    expect(await addressOf("ord_paid")).toBe("addr_alice_office");
  });

  it("a negation standing apart still never names the record of a change nobody approves", async () => {
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_delivery_address",
        intent: "Send the order I have not paid for yet to my home address.",
      },
    });
    expect(sc(out).status).toBe("open");
    expect(text(out)).toMatch(/ask the user/);
    expect(await addressOf("ord_pending")).toBe("addr_alice_office");
  });

  it("the record sent from those the answer said to ask about is the user's answer: no second ask", async () => {
    const client = await w.connect(w.keys.alice);
    const start = await client.callTool({
      name: "start_action",
      arguments: { intent: "Send my unshipped order to my home address." },
    });
    const s = sc(start) as Json;
    expect(s.status).toBe("open");
    expect(text(start)).toMatch(/ord_pending, ord_paid[^\n]*ask the user which one/);
    const advanced = await client.callTool({
      name: "advance_action",
      arguments: { action_id: s.action_id, version: s.version, patch: { order_id: "ord_paid" } },
    });
    expect(text(advanced)).not.toMatch(/ask the user/);
    expect(sc(advanced)).toMatchObject({ status: "completed" });
    expect(await addressOf("ord_paid")).toBe("addr_alice_home");
    expect(await addressOf("ord_pending")).toBe("addr_alice_office");
  });

  it("a record the ask did not name is still asked about (an age tie names two; a third sent is the agent's pick)", async () => {
    // Open tickets: tkt_1, tkt_2, tkt_9 (the newest); tkt_1 is made as new as tkt_9.
    sameCreatedAt(w.legacy, "tkt_1", "tkt_9");
    const client = await w.connect(w.keys.sam);
    const start = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_ticket_priority",
        intent: "Raise the newest open ticket to high priority.",
        patch: { priority: "high" },
      },
    });
    const s = sc(start) as Json;
    expect(text(start)).toMatch(/ask the user which one/);
    const named = /one of 2 as old: (tkt_\d), (tkt_\d)/.exec(text(start));
    expect(new Set([named?.[1], named?.[2]])).toEqual(new Set(["tkt_1", "tkt_9"]));
    const other = "tkt_2";
    const advanced = await client.callTool({
      name: "advance_action",
      arguments: { action_id: s.action_id, version: s.version, patch: { ticket_id: other } },
    });
    expect(sc(advanced).status).not.toBe("completed");
    expect(text(advanced)).toMatch(/ask the user/);
  });

  it("review 65b: words beside the record's id match no capability by the id's own words", async () => {
    // "no later than today" beside ord_pending matched the unpaid order's cancel by "pending",
    // offered as the next call, which cancelled the order at once.
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: {
        intent: "Change the delivery address of my pending order to my home address, no later than today.",
      },
    });
    expect(sc(out), text(out)).toMatchObject({ capability: "change_delivery_address" });
    expect(JSON.stringify(sc(out).next_actions ?? [])).not.toContain("cancel_unpaid_order");
    expect(JSON.stringify(sc(out).also_done ?? [])).not.toContain("cancel_unpaid_order");
    expect(text(out)).not.toContain("cancel_unpaid_order");
  });
});
