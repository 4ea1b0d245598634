import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const CHECKOUT_PATCH = {
  items: [{ product_id: "prod_mug", quantity: 1 }],
  address_id: "Office",
  shipping_method: "standard",
  payment_type: "balance",
};

/**
 * Played (issue 23, `agent-play --host elicitation`, `resume --decline`): the person declined the
 * approval screen their host offered, and the answer still read "Status: awaiting_approval …
 * Approval – Status: pending" (browse) or "Not approved yet" (actions): the model could not tell
 * whether declining did anything. A decline now withdraws the pending approval: the action is
 * cancelled (nothing moves; a decline from an MCP client can never approve, only make things
 * safer), audited `approval.declined`, and the answer says so in its first line. A dismissal
 * (`cancel`: closed without choosing) leaves it the person's to decide. Real MCP client over HTTP.
 */
describe("a declined approval elicitation withdraws the approval (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const host = (key: string, action: "decline" | "cancel", faces?: string) =>
    w.connect(key, {
      ...(faces ? { faces } : {}),
      elicitationModes: { url: true },
      elicit: async () => ({ action }),
    });
  const withdrawn = async (actionId: string) => {
    expect((await w.db.action.findUniqueOrThrow({ where: { id: actionId } })).status).toBe("cancelled");
    expect(await w.db.approval.findFirst({ where: { actionId } })).toMatchObject({ status: "voided" });
    expect(await w.db.effect.count({ where: { actionId } })).toBe(0);
    const audit = await w.db.auditEvent.findFirst({ where: { operation: "approval.declined", actionId } });
    expect(audit?.outcome).toBe("applied");
  };

  it("start_action: declined on the host, the action is cancelled and the answer's first line says so", async () => {
    const alice = await host(w.keys.alice, "decline");
    const res = await alice.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: CHECKOUT_PATCH },
    });
    const out = sc(res);
    expect(out).toMatchObject({ outcome: "applied", status: "cancelled", next_actions: [] });
    expect(text(res).split("\n")[0]).toBe(
      "cancelled: Declined in the host, as its MCP client reported: the approval is withdrawn and Checkout cancelled; nothing was executed",
    );
    await withdrawn(String(out.action_id));
  });

  it("submit: declined on the host, the action's page opens with the withdrawal and shows it cancelled", async () => {
    const alice = await host(w.keys.alice, "decline", "browse");
    const res = await alice.callTool({
      name: "submit",
      arguments: { uri: "shop://checkout", fields: { ...CHECKOUT_PATCH, user_words: "Buy a mug" } },
    });
    const page = text(res);
    // The page's one outcome line is what the decline did.
    expect(page).toMatch(
      /^# Action \w+\n\ncheckout · cancelled · version 2\n\n\*\*applied:\*\* Declined in the host, as its MCP client reported: the approval is withdrawn and Checkout cancelled; nothing was executed\n/,
    );
    expect(page.match(/^\*\*applied:\*\*/gm)).toHaveLength(1);
    expect(page).not.toMatch(/Status:\*\* pending/);
    const actionId = String(sc(res).uri).replace("actions://", "");
    await withdrawn(actionId);
  });

  it("dismissed (closed without choosing): nothing is withdrawn, the approval stays the person's to decide", async () => {
    const alice = await host(w.keys.alice, "cancel");
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: CHECKOUT_PATCH },
      }),
    );
    const actionId = String(out.action_id);
    expect((await w.db.action.findUniqueOrThrow({ where: { id: actionId } })).status).toBe(
      "awaiting_approval",
    );
    expect(await w.db.approval.findFirst({ where: { actionId } })).toMatchObject({ status: "pending" });
    expect(await w.db.auditEvent.count({ where: { operation: "approval.declined", actionId } })).toBe(0);
  });
});
