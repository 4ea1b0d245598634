import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AK: with two lamp orders, "Change the shipping address on my lamp order: …" answered with
 * all nine orders to choose from. Records the words name alike are the few listed to ask the user
 * about; a change needing no approval never runs on either; one lamp order is still taken.
 */
describe("records the words name alike are listed, not every record (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });
  const addressOf = async (id: string) =>
    (await legacyRecord<{ address: { id: string } }>(w, `orders/${id}`)).address.id;

  it("one lamp order: it is taken and the address changes", async () => {
    const out = await start("Change the delivery address of my lamp order to my home");
    expect(sc(out), text(out)).toMatchObject({ status: "completed" });
    expect(await addressOf("ord_paid")).toBe("addr_alice_home");
  });

  it("two lamp orders: both are listed to ask about, no other order, and nothing changes", async () => {
    const bought = sc(await start("Buy one Desk Lamp, standard shipping to my office, pay by card"));
    const decided = await approve(w, String(bought.action_id));
    const placed = String((decided.result as { entity?: { id?: string } } | undefined)?.entity?.id ?? "");
    // Other words than the first test's: the same words again would be its replay.
    const out = await start("Change the shipping address on my lamp order to my home");
    const s = sc(out);
    expect(s.status, text(out)).toBe("open");
    expect(text(out)).toMatch(/fit 2 orders that can take this: ord_\w+, ord_\w+; ask the user which one/);
    expect(text(out)).toContain("ord_paid");
    expect(text(out)).not.toContain("ord_pending");
    expect(await addressOf("ord_paid")).toBe("addr_alice_office");
    if (placed) expect(await addressOf(placed)).toBe("addr_alice_office");
  });
});
