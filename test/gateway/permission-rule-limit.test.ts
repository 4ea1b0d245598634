import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { MAX_PERMISSION_RULES } from "@/server/gateway/permissions";
import { createWorld, type World } from "./gateway-world";

/**
 * A tenant's rules are bounded: every call matches them in order, so their number bounds a
 * call's permission work. Both ways of adding one (the console's editor and "grant as rule")
 * stop at the ceiling with a typed refusal and store nothing; another tenant is unaffected.
 */
describe("permission rules per tenant are bounded", () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it(`the ${MAX_PERMISSION_RULES}th rule is the last: the editor and grant-as-rule refuse the next`, async () => {
    const existing = await w.db.permissionRule.count({ where: { tenantId: "acme" } });
    await w.db.permissionRule.createMany({
      data: Array.from({ length: MAX_PERMISSION_RULES - existing }, (_, i) => ({
        tenantId: "acme",
        subjectType: "tenant",
        verb: "navigate",
        pattern: `shop://order/filler_${i}`,
        decision: "allow",
        position: 1000 + i,
      })),
    });
    const admin = {
      sessionId: "test",
      tenantId: "acme",
      tenantName: "Acme",
      userId: w.person.adam.userId,
      email: w.person.adam.email,
      name: w.person.adam.name,
      role: "admin" as const,
    };
    const refused = await createPermissionRule(w.db, admin, {
      subjectType: "tenant",
      verb: "navigate",
      pattern: "shop://orders",
      decision: "deny",
    });
    expect(refused).toMatchObject({ ok: false, code: "conflict" });
    expect(refused.ok ? "" : refused.message).toMatch(new RegExp(`${MAX_PERMISSION_RULES} rules`));

    const asked = await w.gw.requestPermission(w.agent.alice, {
      verb: "navigate",
      target: "shop://orders/limit",
    });
    const requestId = (asked.permission_request as { id: string }).id;
    const granted = await w.gw.decidePermissionRequest(w.person.adam, {
      request_id: requestId,
      decision: "grant",
      mode: "rule",
    });
    expect(granted).toMatchObject({ outcome: "rejected", reason: "rule_limit" });
    expect(await w.db.permissionRequest.findUniqueOrThrow({ where: { id: requestId } })).toMatchObject({
      status: "pending",
    });
    expect(await w.db.permissionRule.count({ where: { tenantId: "acme" } })).toBe(MAX_PERMISSION_RULES);

    // Granting once still works, and another tenant's admin still adds rules.
    expect(
      await w.gw.decidePermissionRequest(w.person.adam, {
        request_id: requestId,
        decision: "grant",
        mode: "once",
      }),
    ).toMatchObject({ outcome: "applied", status: "granted" });
    const gina = {
      ...admin,
      tenantId: "globex",
      tenantName: "Globex",
      userId: w.person.gina.userId,
      email: w.person.gina.email,
      name: w.person.gina.name,
    };
    expect(
      await createPermissionRule(w.db, gina, {
        subjectType: "tenant",
        verb: "navigate",
        pattern: "shop://orders",
        decision: "deny",
      }),
    ).toMatchObject({ ok: true });
  });
});
