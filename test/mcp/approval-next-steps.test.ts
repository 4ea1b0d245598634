import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve, idem } from "../gateway/gateway-world";
import { mugCheckout } from "../helpers/mug-checkout";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const CHECKOUT = mugCheckout();

/**
 * The next steps of an answer waiting on the person's approval name only calls this host should
 * make (issue 23: "Listing a call you shouldn't make is misleading").
 */
describe("next steps while the person decides, per host (MCP over HTTP, real gateway)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("a plain host: the person's approval at the link carries it out, so confirm_action is not listed; said once", async () => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({ name: "start_action", arguments: CHECKOUT });
    const s = sc(started);
    expect(s.status).toBe("awaiting_approval");
    const t = text(started);
    expect(t).not.toMatch(/confirm_action/);
    expect(s.next_actions.map((n) => n.tool)).not.toContain("confirm_action");
    expect(t).toMatch(/approve at: http:\/\/localhost:3000\/confirm\//);
    // Said once, in the message: no step to call (round 14: a listed read was called at once).
    expect(t).toMatch(
      /their approval at the link carries it out and shows them the result: nothing to call now/,
    );
    expect(t).not.toMatch(/^- get_context/m);
    expect(t.match(/carries it out/g)).toHaveLength(1);
    // The MCP Apps screen still comes with it.
    expect(started._meta).toMatchObject({ ui: { resourceUri: "ui://signpost/confirm" } });

    // Re-read, and a confirm sent anyway: neither lists confirm_action as a step.
    const context = await client.callTool({ name: "get_context", arguments: { action_id: s.action_id } });
    expect(text(context)).not.toMatch(/confirm_action/);
    const early = await client.callTool({
      name: "confirm_action",
      arguments: { action_id: s.action_id, version: s.version, idempotency_key: idem() },
    });
    expect(sc(early)).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    expect(text(early)).not.toMatch(/^- confirm_action/m);
    expect(text(early)).toMatch(/nothing to call now/);
    // Said once there too: the engine's own sentence and the face's were both in the message.
    expect(text(early).match(/carries it out/g)).toHaveLength(1);

    // Alice approves in the console: that carried it out, and get_context shows the result.
    expect(await approve(w, String(s.action_id))).toMatchObject({ outcome: "applied" });
    const after = sc(await client.callTool({ name: "get_context", arguments: { action_id: s.action_id } }));
    expect(after.effect).toMatchObject({ status: "applied" });
  });

  it("a plain host whose approval's run did not carry it out: get_context names the outcome and the step it leaves, in one line", async () => {
    const client = await w.connect(w.keys.alice);
    for (const decision of ["ask", "deny"] as const) {
      const s = sc(await client.callTool({ name: "start_action", arguments: CHECKOUT }));
      expect(
        text(await client.callTool({ name: "get_context", arguments: { action_id: s.action_id } })),
      ).toMatch(/nothing to call now/);
      // The agent may not carry it out: asked of an admin, or forbidden by a rule.
      const rule = await w.db.permissionRule.create({
        data: {
          tenantId: "acme",
          subjectType: "agent",
          subjectId: w.agent.alice.agentId as string,
          verb: "confirm",
          pattern: "*",
          decision,
          position: 1,
        },
      });
      try {
        const decided = await approve(w, String(s.action_id));
        expect(decided.result?.outcome).toBe("rejected");
        const after = await client.callTool({ name: "get_context", arguments: { action_id: s.action_id } });
        const first = text(after).split("\n")[0];
        const steps = sc(after).next_actions as unknown as Array<{ tool: string; description: string }>;
        if (decision === "ask") {
          expect(first).toBe(
            "ready: Checkout: approved at CONFIRM_ORDER; the approval's run ended permission_required: nothing was sent; confirm_action asks an admin for this agent's permission",
          );
          expect(steps.find((n) => n.tool === "confirm_action")?.description).toMatch(/^Asks an admin/);
        } else {
          expect(first).toBe(
            "ready: Checkout: approved at CONFIRM_ORDER; the approval's run ended permission_denied: nothing was sent, a rule forbids this agent; nothing to call: tell the user an admin must change the rule",
          );
          // A confirm the rule refuses is no step.
          expect(steps.map((n) => n.tool)).not.toContain("confirm_action");
        }
      } finally {
        await w.db.permissionRule.delete({ where: { id: rule.id } });
      }
    }
  });

  it("a host that opens URLs: confirm_action is the call that sends the person to the link again", async () => {
    let approveNow = false;
    const client = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async (params) => {
        // Closed without deciding (a decline would withdraw it: declined-approval-withdrawn.test.ts).
        if (!approveNow) return { action: "cancel" };
        const actionId = String(params.url).split("/confirm/")[1] ?? "";
        await approve(w, actionId);
        return { action: "accept" };
      },
    });
    // The person closed the screen the first time: the answer's next call is confirm_action, said
    // as what it does on this host (not "not needed").
    const declined = await client.callTool({ name: "start_action", arguments: CHECKOUT });
    const s = sc(declined);
    expect(s).toMatchObject({ outcome: "rejected", reason: "approval_pending" });
    expect(text(declined)).toMatch(
      /^- confirm_action \{action_id, version\} \+ idempotency_key — Opens the approval link for the user again\b/m,
    );
    expect(text(declined)).not.toMatch(/Not needed/);
    approveNow = true;
    const confirmed = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: s.action_id, version: s.version, idempotency_key: idem() },
      }),
    );
    expect(confirmed).toMatchObject({ outcome: "applied", status: "completed" });
  });
});
