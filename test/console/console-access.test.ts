import { afterAll, beforeAll, expect, it } from "vitest";
import { getActionDetail, listActions } from "@/server/gateway/console/list-actions";
import { listApprovals } from "@/server/gateway/console/list-approvals";
import { listAuditEvents } from "@/server/gateway/console/list-audit-events";
import {
  createPermissionRule,
  listPermissionRules,
  reorderPermissionRules,
} from "@/server/gateway/console/manage-permissions";
import { testPermission } from "@/server/gateway/console/test-permission";
import { createGateway } from "@/server/gateway/create-gateway";
import { personContext } from "@/server/gateway/trusted-context";
import {
  createTestDatabase,
  describeEachProvider,
  insertAuditRows,
  type TestDatabase,
} from "../helpers/database";
import { contextOf, seedConsoleFixtures } from "./console-fixtures";

describeEachProvider("console access rules on %s", (provider) => {
  let t: TestDatabase;
  let f: Awaited<ReturnType<typeof seedConsoleFixtures>>;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    f = await seedConsoleFixtures(t.db);
  });
  afterAll(async () => t?.drop());

  it("a member sees only their own approvals and actions; an admin sees the tenant's, never another tenant's", async () => {
    const mine = await listApprovals(t.db, contextOf(f.alice));
    expect(mine.map((a) => a.actionId)).toEqual([f.aliceAction.action.id]);
    const tenant = await listApprovals(t.db, contextOf(f.adam));
    expect(tenant.map((a) => a.actionId).sort()).toEqual(
      [f.aliceAction.action.id, f.bobAction.action.id].sort(),
    );
    expect((await listActions(t.db, contextOf(f.alice))).actions.map((a) => a.id)).toEqual([
      f.aliceAction.action.id,
    ]);
    expect(await getActionDetail(t.db, contextOf(f.alice), f.bobAction.action.id)).toBeNull();
    expect(await getActionDetail(t.db, contextOf(f.adam), f.ginaAction.action.id)).toBeNull();
    expect(await getActionDetail(t.db, contextOf(f.sam), f.bobAction.action.id)).not.toBeNull();
  });

  it("audit events: a member sees only rows for them; filters narrow; another tenant never appears", async () => {
    await insertAuditRows(t.db, [
      {
        tenantId: "acme",
        userId: f.alice.id,
        agentId: f.agent.id,
        face: "actions",
        operation: "action.started",
        capability: "checkout",
        arguments: { api_key: "sk_live_123", items: 2 },
        outcome: "applied",
        latencyMs: 12,
      },
      {
        tenantId: "acme",
        userId: f.bob.id,
        face: "browse",
        operation: "page.navigated",
        target: "shop://orders",
        arguments: {},
        outcome: "applied",
        latencyMs: 3,
      },
      {
        tenantId: "globex",
        userId: f.gina.id,
        face: "browse",
        operation: "page.navigated",
        target: "shop://orders",
        arguments: {},
        outcome: "applied",
        latencyMs: 3,
      },
    ]);
    const member = await listAuditEvents(t.db, contextOf(f.alice), {});
    expect(member.every((e) => e.userId === f.alice.id)).toBe(true);
    const support = await listAuditEvents(t.db, contextOf(f.sam), { filter: { face: "browse" } });
    expect(support.map((e) => e.target)).toEqual(["shop://orders"]);
    expect(support.every((e) => e.userId === f.bob.id)).toBe(true);
    const started = await listAuditEvents(t.db, contextOf(f.sam), {
      filter: { target: "checkout", agentId: f.agent.id },
    });
    expect(started).toHaveLength(1);
    // Defence in depth: a credential-looking key is never shown, whatever a writer stored.
    expect(JSON.stringify(started[0]?.arguments)).not.toContain("sk_live_123");
    const forward = await listAuditEvents(t.db, contextOf(f.sam), { afterSeq: 0 });
    expect(forward.map((e) => e.seq)).toEqual([...forward.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it("permission rules stay inside the tenant; the tester names the deciding rule; a grant as rule goes to the top and wins", async () => {
    const admin = contextOf(f.adam);
    expect(
      await createPermissionRule(t.db, admin, {
        subjectType: "agent",
        subjectId: f.globexAgent.id,
        verb: "submit",
        pattern: "shop://*",
        decision: "allow",
      }),
    ).toMatchObject({ ok: false, code: "not_found" });
    const deny = await createPermissionRule(t.db, admin, {
      subjectType: "tenant",
      verb: "submit",
      pattern: "shop://order/*/after-sales",
      decision: "deny",
    });
    expect(deny.ok).toBe(true);
    const gina = contextOf(f.gina);
    expect(await listPermissionRules(t.db, gina)).toEqual([]);
    const foreign = await createPermissionRule(t.db, gina, {
      subjectType: "tenant",
      verb: "*",
      pattern: "*",
      decision: "allow",
    });
    expect(foreign.ok).toBe(true);
    const acmeRules = await listPermissionRules(t.db, admin);
    expect(
      await reorderPermissionRules(t.db, admin, [
        ...acmeRules.map((r) => r.id),
        foreign.ok ? foreign.value.id : "",
      ]),
    ).toMatchObject({
      ok: false,
      code: "conflict",
    });
    const request = await t.db.permissionRequest.create({
      data: {
        tenantId: "acme",
        agentId: f.agent.id,
        verb: "submit",
        target: "shop://order/ord_paid/after-sales",
        status: "pending",
      },
    });
    const target = "shop://order/ord_paid/after-sales";
    const before = await testPermission(t.db, admin, { agentId: f.agent.id, verb: "submit", target });
    expect(before).toMatchObject({
      ok: true,
      value: { decision: "deny", source: "rule", rule: { pattern: "shop://order/*/after-sales" } },
    });
    expect(await testPermission(t.db, gina, { agentId: f.agent.id, verb: "submit", target })).toMatchObject({
      ok: false,
      code: "not_found",
    });
    const gw = createGateway({ db: t.db });
    expect(
      await gw.decidePermissionRequest(personContext(gina), {
        request_id: request.id,
        decision: "grant",
        mode: "rule",
      }),
    ).toMatchObject({
      outcome: "not_found",
    });
    const granted = await gw.decidePermissionRequest(personContext(admin), {
      request_id: request.id,
      decision: "grant",
      mode: "rule",
    });
    expect(granted).toMatchObject({ outcome: "applied" });
    const rules = await listPermissionRules(t.db, admin);
    expect(rules[0]).toMatchObject({
      subjectType: "agent",
      subjectId: f.agent.id,
      decision: "allow",
      pattern: target,
    });
    const after = await testPermission(t.db, admin, { agentId: f.agent.id, verb: "submit", target });
    expect(after).toMatchObject({ ok: true, value: { decision: "allow", rule: { id: rules[0]?.id } } });
  });

  it("the tester never uses up a one-time grant", async () => {
    const admin = contextOf(f.adam);
    const target = "shop://order/ord_transit/after-sales";
    await createPermissionRule(
      t.db,
      admin,
      { subjectType: "agent", subjectId: f.agent.id, verb: "submit", pattern: target, decision: "ask" },
      { atTop: true },
    );
    const request = await t.db.permissionRequest.create({
      data: {
        tenantId: "acme",
        agentId: f.agent.id,
        verb: "submit",
        target,
        status: "granted",
        grantMode: "once",
      },
    });
    for (let i = 0; i < 2; i++) {
      expect(
        await testPermission(t.db, admin, { agentId: f.agent.id, verb: "submit", target }),
      ).toMatchObject({ ok: true, value: { decision: "allow", source: "grant" } });
    }
    expect(await t.db.permissionRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({
      status: "granted",
    });
  });
});
