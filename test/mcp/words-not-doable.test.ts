import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set CK (played, both hosts): "Pay for my pending order by card, with the SAVE5 coupon." opened
 * the payment's approval without the coupon (a payment takes none; only a new order does). The
 * plain host's model read one "not done" line and cancelled the approval itself; on the host that
 * shows an approval at once, the model read nothing, Alice declined on her screen, and two more
 * calls found why. A change a person must approve is not sent for approval short of what the
 * words ask of it: nothing starts, the answer says why, and its next step is the same change
 * without those words, on the user's word. Words that ask on a condition ("if one applies") still
 * go to approval, said as not done. Seed: ord_pending is Alice's one unpaid order ($156.50).
 */
describe("words asking what the change cannot do are not sent for approval (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const pendingApprovals = () => w.db.approval.count({ where: { status: "pending" } });

  it("nothing starts, the reason is said, and the next step is the change without those words", async () => {
    const before = await pendingApprovals();
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my pending order by card, with the SAVE5 coupon." },
    });
    expect(sc(out), text(out)).toMatchObject({ outcome: "rejected", reason: "words_not_doable" });
    expect(text(out)).toContain(
      '"with the SAVE5 coupon": pay_order takes no coupon_code (only checkout does',
    );
    expect(text(out)).not.toMatch(/approve at|awaiting_approval/);
    expect(await pendingApprovals()).toBe(before);
    const next = (sc(out).next_actions as Array<{ tool: string; args: Json }>)[0];
    expect(next).toMatchObject({
      tool: "start_action",
      args: {
        capability: "pay_order",
        entity_id: "ord_pending",
        intent: "Pay for my pending order by card.",
      },
    });
    // On the user's word, that step goes to their approval, by card, with nothing left unsaid.
    const again = await client.callTool({ name: "start_action", arguments: next?.args ?? {} });
    expect(sc(again)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(sc(again).from_words).toMatchObject({ payment_type: "card" });
    expect(text(again)).not.toContain("not done");
  });

  it("on a host that shows approvals at once, no approval is shown: the model reads why", async () => {
    let shown = 0;
    const client = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async () => {
        shown++;
        return { action: "decline" };
      },
    });
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my pending order by card, with the SAVE5 coupon." },
    });
    expect(shown).toBe(0);
    expect(sc(out)).toMatchObject({ reason: "words_not_doable" });
  });

  it("words asking on a condition go to approval, said as not done", async () => {
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my pending order by card, and use the SAVE5 coupon if it applies." },
    });
    expect(sc(out), text(out)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    expect(text(out)).toContain('not done: "use the SAVE5 coupon if it applies"');
  });

  it("words that deny or hedge it go to approval: 'without a coupon', 'if you can, apply …'", async () => {
    const client = await w.connect(w.keys.alice);
    for (const intent of [
      "Pay my pending order by card without a coupon.",
      "Pay my pending order by card; if you can, apply the SAVE5 coupon.",
    ]) {
      const out = await client.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out), `${intent}\n${text(out)}`).toMatchObject({
        capability: "pay_order",
        status: "awaiting_approval",
      });
      await client.callTool({ name: "cancel_action", arguments: { action_id: sc(out).action_id } });
    }
  });

  it("a single word of the change's own words: the next start is offered without words, never with half a phrase", async () => {
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay my pending order by card (with the SAVE5 coupon)." },
    });
    expect(sc(out), text(out)).toMatchObject({ reason: "words_not_doable" });
    const next = (sc(out).next_actions as Array<{ tool: string; args: Json }>)[0];
    expect(next?.args).toEqual({ capability: "pay_order", entity_id: "ord_pending" });
  });

  it("review 65b: a polite 'could you' is no hedge, 'skip the coupon' is, and the words' other asks are said", async () => {
    const client = await w.connect(w.keys.alice);
    const polite = await client.callTool({
      name: "start_action",
      arguments: { intent: "Could you pay my pending order by card with the SAVE5 coupon?" },
    });
    expect(sc(polite), text(polite)).toMatchObject({ reason: "words_not_doable" });
    const skip = await client.callTool({
      name: "start_action",
      arguments: { intent: "Pay my pending order by card, skip the SAVE5 coupon." },
    });
    expect(sc(skip), text(skip)).toMatchObject({ capability: "pay_order", status: "awaiting_approval" });
    await client.callTool({ name: "cancel_action", arguments: { action_id: sc(skip).action_id } });
    const more = await client.callTool({
      name: "start_action",
      arguments: {
        intent: "Pay my pending order by card with the SAVE5 coupon and send it to my home address.",
      },
    });
    expect(sc(more), text(more)).toMatchObject({ reason: "words_not_doable" });
    expect(text(more)).toContain("send it to my home address");
  });
});
