import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set CC (task 6): "Return one of the mugs from my kettle order — it's cracked." submitted to the
 * order's after-sales form with `item_ids` naming the two-mug line (chosen by the model) asked
 * for evidence first; the summary then said "Signpost Mug ×2 $36.00", and the model read the whole
 * action (1,195 tokens) before cancelling. A list the agent sends beside words that count fewer
 * of one of its lines stops at once, as when the words fill it; after the user says yes, the
 * line set on the action goes on.
 */
describe("a list the agent sent, beside words that ask for part of a line", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const words = "Return one of the mugs from my kettle order — it's cracked.";
  /** Alice's start of a return of the two-mug line, the ids sent by the agent beside the words. */
  const startMugReturn = async (intent: string, evidence: string) =>
    (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_delivered",
        intent,
        patch: { kind: "return_refund", item_ids: ["ord_delivered_item_2"], evidence: [evidence] },
      },
    });

  it("the form's submit says the line goes whole and asks nobody to approve yet", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const t = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_delivered/after-sales",
          fields: {
            kind: "return_refund",
            reason: "cracked",
            item_ids: ["ord_delivered_item_2"],
            user_words: words,
          },
        },
      }),
    );
    expect(t).toContain("the user's words ask for 1 of 2, and no part of a line can be chosen");
    expect(t).not.toContain("awaiting_approval");
  });

  it("start_action with the ids and the words stops the same way; the advance after the user's yes goes on", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({
      name: "start_action",
      arguments: {
        capability: "after_sales",
        entity_id: "ord_delivered",
        intent: words,
        patch: {
          kind: "return_refund",
          item_ids: ["ord_delivered_item_2"],
          evidence: ["one mug arrived cracked"],
        },
      },
    });
    expect(text(started)).toContain("no part of a line can be chosen");
    const s = sc(started);
    const advanced = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: s.action_id,
        version: s.version,
        patch: { item_ids: ["ord_delivered_item_2"] },
      },
    });
    expect(sc(advanced), text(advanced)).toMatchObject({ status: "awaiting_approval" });
  });

  // Review 63c: a count after a clause's break, or after "both", says why, not how many.
  it.each([
    "Return the mugs from my kettle order, they arrived cracked.",
    "Return both mugs since one is cracked",
    "Return the mugs — one arrived cracked",
    "Return the mugs because one arrived cracked",
    "Return the mugs I bought 1 week ago, cracked",
  ])("'%s' asks for the whole line: not stopped", async (intent) => {
    const started = await startMugReturn(intent, "both mugs cracked");
    expect(text(started)).not.toContain("no part of a line can be chosen");
    expect(sc(started), text(started)).toMatchObject({ status: "awaiting_approval" });
  });

  it.each(["Return one of the mugs", "Return 1 mug, it is cracked", "Send back just one of the two mugs"])(
    "'%s' still stops",
    async (intent) => {
      const started = await startMugReturn(intent, "cracked");
      expect(text(started)).toContain("no part of a line can be chosen");
    },
  );
});
