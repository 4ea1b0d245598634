import { afterAll, beforeAll, expect, it } from "vitest";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { mayDecide } from "@/server/gateway/approvals";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, type World } from "./gateway-world";

/**
 * The guards at the door of decideApproval, each found by mutation testing to be unchecked:
 * a member never learns of another person's action, the refusal names the action's own person,
 * an action without a pending approval is a conflict, and an agent never satisfies the policy.
 */
describeEachProvider("approval guards (%s)", (provider) => {
  let w: World;
  let bea: TrustedContext;
  beforeAll(async () => {
    w = await createWorld(provider);
    const user = await w.db.user.create({
      data: { tenantId: "acme", email: "bea@acme.test", name: "Bea", role: "member", passwordHash: "x" },
    });
    const minted = mintAgentKey();
    await w.db.agent.create({
      data: {
        tenantId: "acme",
        name: "Bea's agent",
        userId: user.id,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    bea = {
      kind: "person",
      tenantId: "acme",
      userId: user.id,
      email: user.email,
      name: "Bea",
      role: "member",
      face: "console",
    };
  });
  afterAll(async () => w?.close());

  it("another member of the same tenant is told the action does not exist, not whose it is", async () => {
    const started = await checkoutToConfirmation(w);
    const out = await w.gw.decideApproval(bea, {
      action_id: started.action_id,
      version: started.version,
      decision: "approve",
    });
    expect(out).toMatchObject({ outcome: "not_found", reason: "action_not_found" });
    expect(JSON.stringify(out)).not.toContain("Alice");
  });

  it("the refusal names the person the action is for (looked up in the action's tenant)", async () => {
    // An action of Bea's awaiting her approval (as the engine stores one).
    const action = await w.db.action.create({
      data: {
        tenantId: "acme",
        userId: bea.userId,
        agentId: null,
        capability: "checkout",
        node: "CONFIRM_ORDER",
        version: 2,
        status: "awaiting_approval",
        state: {},
      },
    });
    await w.db.approval.create({
      data: {
        actionId: action.id,
        tenantId: "acme",
        userId: bea.userId,
        version: 2,
        summaryDigest: "a".repeat(64),
        summary: { amount: 100 },
        status: "pending",
      },
    });
    const out = await w.gw.decideApproval(w.person.adam, {
      action_id: action.id,
      version: 2,
      decision: "approve",
    });
    expect(out).toMatchObject({ outcome: "rejected", reason: "not_your_approval" });
    expect(out.message).toMatch(/^Only Bea /);
  });

  it("an action with no approval at its version is a conflict, not an error", async () => {
    const open = await w.gw.startAction(w.agent.alice, {
      capability: "checkout",
      patch: { items: [{ product_id: "prod_mug", quantity: 1 }] },
    });
    expect(open).toMatchObject({ outcome: "input_required", node: "ADDRESS" });
    const out = await w.gw.decideApproval(w.person.alice, {
      action_id: open.action_id,
      version: open.version,
      decision: "approve",
    });
    expect(out).toMatchObject({ outcome: "conflict", reason: "no_pending_approval" });
  });

  it("an agent never satisfies an approval policy, not even for its own person", () => {
    const rule = { subject: true, roles: ["admin", "support", "member"] as const };
    expect(
      mayDecide(w.agent.alice, { userId: w.agent.alice.userId }, { ...rule, roles: [...rule.roles] }),
    ).toBe(false);
    expect(mayDecide(w.person.alice, { userId: w.person.alice.userId }, { ...rule, roles: [] })).toBe(true);
  });
});
