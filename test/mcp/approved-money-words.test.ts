import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderSummary } from "@/server/connectors/sdk/render-decision-summary";
import { parseActionState } from "@/server/engine/action-state";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const LATE = "I was charged express shipping on my backpack order but it came late; refund the difference";

/**
 * What a model and a person read around an approval that moves money (issue 23, played on a plain
 * host): a reason filled from the user's words says they are their words and nothing that invites
 * asking (with or without a why in them); the approval screen and the result say what
 * money moved, where; the waiting answer names the one call that shows the result, and that call
 * answers with it in its first line (without the random ids: waiting 298 tokens, get_context 140,
 * each with why a shipping refund is that much).
 */
describe("approved money, in words a model and a person read right (MCP over HTTP, real gateway)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const screen = async (actionId: string) => {
    const row = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
    const state = parseActionState(row.state);
    return { rendered: renderSummary(state.summary, "x"), values: state.values };
  };

  it("a reason the words give is the user's own words: no hedge to ask, and the screen shows exactly what is sent", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({ name: "start_action", arguments: { intent: LATE } });
    const out = sc(res);
    expect(out.status).toBe("awaiting_approval");
    const t = text(res);
    expect(t).toContain(`- Reason: ${LATE} (the user's own words)`);
    expect(t).not.toMatch(/no reason|gave none|their own\)/);
    const { rendered, values } = await screen(String(out.action_id));
    const reason = rendered.rows.find((r) => r.label === "Reason");
    expect(reason).toMatchObject({ text: LATE, note: "the user's own words" });
    expect(values.reason).toBe(LATE);
  });

  it("words that say what but not why fill the reason with the request, verbatim, marked as the user's own words and nothing that asks", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({
      name: "start_action",
      arguments: { intent: "Cancel my lamp order." },
    });
    const out = sc(res);
    expect(out.missing ?? []).not.toContain("reason");
    expect(text(res)).toContain("Cancel my lamp order. (the user's own words)");
    expect(text(res)).not.toMatch(/no reason|ask the user for a reason|say no why/i);
  });

  it("after approval the screen, get_context and verify_action say what money moved and where, first", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({ name: "start_action", arguments: { intent: LATE } });
    const id = String(sc(started).action_id);
    const waiting = text(started);
    // One line names the one call that shows the result.
    const naming = waiting.split("\n").filter((l) => /get_context/.test(l));
    expect(naming).toHaveLength(1);
    expect(naming[0]).toMatch(
      /nothing to call now or after \(your next call once they decide brings the result/,
    );
    // 298 since a shipping refund says what was paid and what of it is owed back (set AT: "$7.00"
    // left the person unsure why not the $12.00 paid).
    expect(encode(waiting.replaceAll(id, "")).length).toBeLessThanOrEqual(298);

    // Before: the approval screen's heading is the money sentence.
    expect((await screen(id)).rendered.sentence).toBe("Refund $7.00 to Visa •••• 4242");
    // After: the person's result line says the same, not "Submit the after-sales request".
    const decided = await approve(w, id);
    expect(decided.result?.outcome).toBe("applied");
    expect(decided.result?.message).toMatch(/^Refund \$7\.00 to Visa •••• 4242/);

    const read = text(await alice.callTool({ name: "get_context", arguments: { action_id: id } }));
    expect(read.split("\n")[0]).toBe("Refund $7.00 to Visa •••• 4242: done and verified");
    // Counted without the random ids (the action's, 14–16 tokens; the refund's, ~10): before, 93;
    // then 108 with "(how the order was paid)" beside where the money goes (set M); 140 with what
    // shipping was paid and what of it was overpaid (set AT); 145 with "a refund goes nowhere
    // else" (set BA: the destination read as a choice, and the user was asked for one).
    expect(encode(read.replaceAll(id, "").replace(/re_[0-9a-f]+/g, "")).length).toBeLessThanOrEqual(145);
    const verified = text(await alice.callTool({ name: "verify_action", arguments: { action_id: id } }));
    expect(verified.split("\n")[0]).toBe("applied: Refund $7.00 to Visa •••• 4242: done and verified");
  });
});
