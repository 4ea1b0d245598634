import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Review 53c: what 0e13c49 and 0cf183f (the ask's first clause in part-of-order words, "but"
 * after "all/everything/anyone" as a negation, the colon detail kept for capabilities nobody
 * approves, the refused refund destination) got wrong, found through the real MCP client. Each
 * test states what the user's words mean. Marked "(regression)" where 85624f9 answered right.
 * Left open (the note says so): "Cancel all but the mug from my lamp order" reads as an order
 * without a mug; "Buy all but the mugs in my cart" buys the mugs (held for approval); "all orders
 * but the cancelled ones" filters to the cancelled one.
 */
describe("review 53c findings (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (who: "alice" | "sam", intent: string) =>
    (await w.connect(w.keys[who])).callTool({ name: "start_action", arguments: { intent } });
  const from = (out: unknown) => (sc(out).from_words ?? {}) as Json;

  // Medium (regression): the ask is cut at its first mark, so a greeting, a lead-in ("In my lamp
  // order,") or a keep-clause after a comma is dropped, and a cancel of one item of ord_paid (not
  // shipped) reaches the person's approval as the whole order ($316.00). At 85624f9 each was
  // refused as whole_order_only before anyone was asked.
  it.each([
    "Cancel my lamp order, except the mug",
    "Cancel my lamp order, but keep the mug",
    "Cancel my lamp order, all but the mug",
    "In my lamp order, cancel only the lamp",
    "Hi, please cancel the lamp from my lamp order",
    "Hello! Cancel the lamp but keep the mug",
    "Cancel my lamp order: just the lamp, not the mug",
    "For my paid order, I want to cancel the lamp and keep the mug",
  ])("(regression) one item asked never reaches approval as the whole order: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(sc(out).status, text(out)).not.toBe("awaiting_approval");
    expect(text(out)).toMatch(/whole_order_only|alone cannot be cancelled/);
  });

  // Medium (regression): a mark does not end "but" after "everything/everyone": in "show
  // everything, but urgent tickets first" the comma makes "but" a conjunction, yet the urgent
  // ticket (the one the user put first) is left out as "not urgent".
  it("(regression) 'show everything, but urgent tickets first' keeps the urgent ticket", async () => {
    const sam = await w.connect(w.keys.sam);
    const page = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "show everything, but urgent tickets first" },
      }),
    );
    expect(page).toContain("tkt_9");
    expect(page).not.toMatch(/`not urgent`/);
  });

  // Low (regression): the same across a comma in an action: Bella, named as the assignee, is read
  // as refused; 85624f9 assigned her (same team, no approval needed, the words named her).
  it("(regression) 'Assign tkt_1 to Bella; Sid helps everyone, but Bella knows billing' takes Bella", async () => {
    const out = await start("sam", "Assign tkt_1 to Bella; Sid helps everyone, but Bella knows billing");
    expect(from(out).assignee_id, text(out)).toBe("tm_bella");
  });

  // Medium (regression): an age word after the colon of a capability nobody approves is read as
  // naming the record even where the words name it by its item: the headphones order (in transit)
  // is replaced by the newest order (the kettle, not shipped), and the answer is "has not shipped
  // yet; there is no tracking" about an order the user did not ask about. 85624f9 tracked ord_transit.
  it.each([
    "Track my headphones order: latest one",
    "Track my headphones order: newest events first",
    "Where is my headphones order: the latest news",
  ])("(regression) the headphones order is tracked: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(String(from(out).order_id ?? ""), text(out)).toContain("ord_transit");
    expect(sc(out).status).toBe("completed");
  });

  // Low (regression): refusedRefundTo reads a denied verb ("don't mind", "don't forget", "can't
  // wait", "everything, but") as refusing the payment word after it, and stops with "which the
  // user's words refuse" where the user accepted or asked for that very destination. At 85624f9
  // each reached the person's approval refunding to how the order was paid.
  it.each([
    "Return the tee from my exchange order, I don't mind getting store credit",
    "Cancel my lamp order and don't forget to refund it to my card",
    "Return the kettle from my delivered order, I can't wait long for the refund to my card",
    "Return the tee from my exchange order. I tried everything, but store credit is fine",
  ])("(regression) a destination the user accepts is never called refused: %s", async (intent) => {
    const out = await start("alice", intent);
    expect(text(out)).not.toMatch(/which the user's words refuse/);
    expect(sc(out).status, text(out)).toBe("awaiting_approval");
  });
});
