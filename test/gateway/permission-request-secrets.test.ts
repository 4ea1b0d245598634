import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachProvider } from "../helpers/database";
import { createWorld, type World } from "./gateway-world";

/**
 * Found by an outside attack: with an `ask` rule, an id filled with a key became the stored
 * permission request's target, shown verbatim to admins. Such a target is not stored at all.
 */
describeEachProvider("permission requests never store a credential (%s)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent.alice.agentId ?? null,
        verb: "*",
        pattern: "**",
        decision: "ask",
        position: -50,
      },
    });
  });
  afterAll(async () => w?.close());

  it("an entity or action id that looks like a key: permission_required, nothing stored, nothing verbatim", async () => {
    const before = await w.db.permissionRequest.count();
    const key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    const byEntity = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: key });
    expect(byEntity).toMatchObject({ outcome: "rejected", reason: "permission_required" });
    expect(byEntity.message).toContain("looks like a credential");
    const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    const byAction = await w.gw.advanceAction(w.agent.alice, { action_id: token, version: 1, patch: {} });
    expect(byAction.outcome).toBe("rejected");
    expect(await w.db.permissionRequest.count()).toBe(before);
    const stored = JSON.stringify(await w.db.permissionRequest.findMany());
    expect(stored).not.toContain("sk_live_4eC39");
    expect(stored).not.toContain("ghp_16C7e42F");
    // An ordinary id is still asked for, once.
    const plain = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
    expect(plain).toMatchObject({ outcome: "rejected", reason: "permission_required" });
    expect(await w.db.permissionRequest.count()).toBe(before + 1);
  });
});
