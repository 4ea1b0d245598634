import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CN (played, both hosts, 4 calls each): "The mug in my order with the tee was chipped — I
 * just want the money back for the mug, no need to send it back." took `kind = return_refund`
 * (after delivery the one path open, picked for "money back") against the words that deny a
 * return, asked for evidence, and hid why refund-only was closed; the players read the form and
 * cancelled. Money back while keeping the item is refund-only: after delivery the answer says it
 * is closed, why, and what is open, and nothing is left open. Seed: ord_exchange (tee + mug,
 * delivered, paid from the balance); ord_paid (lamp + mug, paid, not shipped).
 */
describe("money back, keeping the item (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: { intent } });

  it("after delivery: refund-only is refused with why and what is open, never a return", async () => {
    for (const intent of [
      "The mug in my order with the tee was chipped — I just want the money back for the mug, no need to send it back.",
      "Refund the mug from my order with the tee, I do not want to return it.",
      "Refund the mug from my order with the tee, I want to keep it.",
    ]) {
      const out = await start(intent);
      expect(sc(out), `${intent}\n${text(out)}`).toMatchObject({
        status: "refused",
        reason: "order_already_shipped",
      });
      expect(text(out), intent).toContain("refund-only is only possible before shipment");
      expect(text(out), intent).toContain("Possible now: return_refund");
      expect(text(out), intent).not.toMatch(/approve at|kind = return_refund/);
    }
  });

  it("a return asked for is still a return; before shipment, keeping nothing back is the refund", async () => {
    const back = await start("Return the mug from my exchange order and refund it");
    expect(sc(back)).toMatchObject({ status: "awaiting_approval" });
    expect(text(back)).toContain("kind = return_refund");
    const paid = await start("I want a refund for my lamp order, no need to send it back");
    expect(sc(paid)).toMatchObject({ status: "awaiting_approval" });
    expect(text(paid)).toContain("kind = refund_only");
  });

  it("review 65c: beside words of another path, a keep-it phrase decides nothing", async () => {
    const back = await start(
      "Return the mug from my exchange order. I want to keep it in the box and send it back.",
    );
    // Unclear between the two: the kind is asked (never refused as refund-only).
    expect(sc(back).status).not.toBe("refused");
    expect(text(back)).not.toContain("kind = refund_only");
    const swap = await start(
      "Exchange the tee from my order with the mug for a size L, I'd like to keep it the same colour",
    );
    expect(sc(swap).status).not.toBe("refused");
    expect(text(swap)).not.toContain("kind = refund_only");
    const shipping = await start("Refund the shipping on my backpack order, I want to keep it");
    expect(sc(shipping).status).not.toBe("refused");
    expect(text(shipping)).not.toContain("kind = refund_only");
  });
});
