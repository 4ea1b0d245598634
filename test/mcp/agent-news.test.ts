import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NEWS_HEADING } from "@/mcp/agent-news";
import { approve } from "../gateway/gateway-world";
import { mugCheckout } from "../helpers/mug-checkout";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const CHECKOUT = mugCheckout();

const NEWS = new RegExp(NEWS_HEADING);

/**
 * A plain host cannot keep a call open while the person approves; the agent is told "nothing to
 * call now", and its next call, whatever the tool, brings how the person's decision ended (issue
 * 23, round 17: the model read the action after every approval to learn it).
 */
describe("news of a person's decisions with the agent's next call (MCP over HTTP, real gateway)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("an approval's result comes first in the next answer of any tool, once, and to that agent only", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = await alice.callTool({ name: "start_action", arguments: CHECKOUT });
    const s = sc(started);
    expect(s.status).toBe("awaiting_approval");
    expect(text(started)).toMatch(
      /nothing to call now or after \(your next call once they decide brings the result; get_context reads it sooner if the user asks\)/,
    );
    expect(await approve(w, String(s.action_id))).toMatchObject({ outcome: "applied" });

    // Sam's agent hears nothing of Alice's action.
    const sam = await w.connect(w.keys.sam);
    const samRead = await sam.callTool({ name: "search", arguments: { query: "tickets" } });
    expect(text(samRead)).not.toMatch(NEWS);

    // Alice's next call is about something else: after its answer, the action as get_context shows it.
    const next = await alice.callTool({
      name: "search_capabilities",
      arguments: { query: "refund my order" },
    });
    const blocks = (next.content as Array<{ type: string; text: string }>).map((b) => b.text);
    expect(blocks).toHaveLength(2);
    expect(blocks[1]).toMatch(NEWS);
    expect(blocks[1]).toContain(`action \`${s.action_id}\``);
    expect(blocks[1]).toMatch(/^Pay \$[0-9.,]+ from .*: done and verified$/m);
    // The answer itself comes first and whole (a client reading one block reads it), its structured part untouched.
    expect(blocks[0]).toMatch(/after_sales|refund/i);
    expect(blocks[0]).not.toMatch(NEWS);
    expect(sc(next).outcome).toBe("applied");

    // Once: the call after brings nothing more.
    const later = await alice.callTool({ name: "navigate", arguments: { uri: "signpost://start" } });
    expect(text(later)).not.toMatch(NEWS);

    // Read as get_context, audited as that read.
    const reads = await w.db.auditEvent.count({
      where: { tenantId: "acme", operation: "context.read", actionId: String(s.action_id) },
    });
    expect(reads).toBe(1);
  });

  it("a decline is news too; reading the action itself takes it without repeating it", async () => {
    const alice = await w.connect(w.keys.alice);
    const declined = sc(await alice.callTool({ name: "start_action", arguments: CHECKOUT }));
    const out = await w.gw.decideApproval(w.person.alice, {
      action_id: String(declined.action_id),
      version: Number(declined.version),
      decision: "reject",
    });
    expect(out.outcome).toBe("applied");
    const told = await alice.callTool({ name: "search", arguments: { query: "my orders" } });
    expect(text(told)).toMatch(NEWS);
    expect(text(told)).toContain(`action \`${declined.action_id}\``);

    // The agent reads the approved action itself right away: its answer is the news, said once.
    const approved = sc(await alice.callTool({ name: "start_action", arguments: CHECKOUT }));
    await approve(w, String(approved.action_id));
    const read = await alice.callTool({ name: "get_context", arguments: { action_id: approved.action_id } });
    expect(text(read)).not.toMatch(NEWS);
    expect(text(read)).toMatch(/^Pay \$[0-9.,]+ from .*: done and verified$/m);
    const after = await alice.callTool({ name: "search_capabilities", arguments: { query: "pay" } });
    expect(text(after)).not.toMatch(NEWS);
  });

  it("a call that names the approved action but does not show it (refused arguments) still brings it, briefly", async () => {
    const alice = await w.connect(w.keys.alice);
    const s = sc(await alice.callTool({ name: "start_action", arguments: CHECKOUT }));
    await approve(w, String(s.action_id));
    // The model's very next call: a confirm with its arguments wrong. Its answer says nothing of
    // how the approved change ended, so the news is not "already in the answer".
    const next = await alice.callTool({ name: "confirm_action", arguments: { action_id: s.action_id } });
    expect(sc(next).reason).toBe("invalid_arguments");
    const news = text(next).slice(text(next).indexOf(NEWS_HEADING));
    expect(news).toMatch(NEWS);
    expect(news).toContain(`action \`${s.action_id}\``);
    expect(news).toMatch(/^Pay \$[0-9.,]+ from .*: done and verified$/m);
    expect(news).toMatch(/order_id ord_/);
    // Briefly: how it ended and what it made, not the summary the agent read before the approval.
    expect(news).not.toMatch(/done with:/);
    expect(news.length).toBeLessThan(400);
    // Once.
    const after = await alice.callTool({ name: "search_capabilities", arguments: { query: "pay" } });
    expect(text(after)).not.toMatch(NEWS);
  });

  it("a form the host kept open while the person approved answers with the action's end, not the same news after it", async () => {
    // Set BU (elicitation host): the resumed submit showed the completed action, then the same
    // action again under the news heading (~60 tokens read twice).
    const alice = await w.connect(w.keys.alice, {
      faces: "browse",
      elicitationModes: { url: true },
      elicit: async (params) => {
        const id = /\/confirm\/([a-z0-9]+)/.exec(String(params.url))?.[1] ?? "";
        await approve(w, id);
        return { action: "accept" };
      },
    });
    const out = await alice.callTool({
      name: "submit",
      arguments: {
        uri: "shop://cart/change",
        fields: {
          product_id: "prod_backpack",
          quantity: 2,
          user_words: "Put two travel backpacks in my cart.",
        },
      },
    });
    expect(text(out)).toMatch(/completed/);
    expect(text(out)).not.toMatch(NEWS);
    const after = await alice.callTool({ name: "search", arguments: { query: "pay" } });
    expect(text(after)).not.toMatch(NEWS);
  });

  it("a refusal at the action's own address is no answer about it: the news still comes", async () => {
    // Review 62: a submit to actions://ID its schema refused carried that address, and took the news for good.
    const alice = await w.connect(w.keys.alice, { faces: "browse,actions" });
    const s = sc(await alice.callTool({ name: "start_action", arguments: CHECKOUT }));
    await approve(w, String(s.action_id));
    const refused = await alice.callTool({ name: "submit", arguments: { uri: `actions://${s.action_id}` } });
    expect(sc(refused).outcome).toBe("rejected");
    const news = text(refused).slice(text(refused).indexOf(NEWS_HEADING));
    expect(news).toMatch(NEWS);
    expect(news).toContain(`action \`${s.action_id}\``);
  });
});
