import { afterAll, beforeAll, expect, it } from "vitest";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";

type Row = { id: string; possible: string; ship_to: string | null };

/**
 * With no order named, change_delivery_address offers the user's orders with whether the change
 * can be done for each. The replay's bug: an order already shipping to the office was "possible:
 * yes" for "ship it to the office", a change that would change nothing.
 */
describeEachProvider("change_delivery_address candidates (%s, real legacy service)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  const rows = async (patch?: Record<string, unknown>) => {
    const out = await w.gw.startAction(w.agent.alice, {
      capability: "change_delivery_address",
      ...(patch ? { patch } : {}),
    });
    expect(out).toMatchObject({ outcome: "input_required", node: "ORDER" });
    return (out.options as { orders: Row[] }).orders;
  };

  it("an order already going to the asked address says so and is not counted as possible", async () => {
    const open = (await rows()).filter((o) => o.possible === "yes");
    const atOffice = open.find((o) => o.ship_to === "Office");
    expect(atOffice, "the seed has an unshipped order going to the Office").toBeDefined();
    // Every unshipped order already goes to the Office: not one can take the change, so the start
    // ends refused in one line and holds nothing (none-can-take.ts), never "possible: yes".
    for (const asked of ["Office", "office"]) {
      const again = await w.gw.startAction(w.agent.alice, {
        capability: "change_delivery_address",
        patch: { address_id: asked },
      });
      expect(again).toMatchObject({ outcome: "rejected" });
      expect(JSON.stringify(again.validation_errors)).toMatch(/none of your \d+ orders can take this now/);
    }
    // Asked for Home instead, the same order can change.
    expect((await rows({ address_id: "Home" })).find((o) => o.id === atOffice?.id)?.possible).toBe("yes");
  });

  it("each order says when it was placed (the text adds how long ago), so 'the order I placed today' needs no other read", async () => {
    for (const o of (await rows()) as Array<Row & { placed?: string }>)
      expect(o.placed).toMatch(/^\d{4}-\d{2}-\d{2}T\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("a shipped or cancelled order says why, in a few words", async () => {
    const shipped = (await rows()).find((o) => /shipped|delivered/.test(o.possible));
    expect(shipped?.possible).toMatch(/^The order has already (shipped|been delivered)$/);
  });
});
