import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideApproval } from "@/server/gateway/console/decide-approval";
import { getActionDetail, listActions } from "@/server/gateway/console/list-actions";
import { listApprovals } from "@/server/gateway/console/list-approvals";
import { listAuditEvents } from "@/server/gateway/console/list-audit-events";
import {
  createPermissionRule,
  decidePermissionRequest,
  listPermissionRules,
  reorderPermissionRules,
} from "@/server/gateway/console/manage-permissions";
import { resolveAction } from "@/server/gateway/console/resolve-action";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../helpers/database";
import { contextOf, seedConsoleFixtures } from "./console-fixtures";

describe.each(await providersUnderTest())("console access rules on %s", (provider) => {
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
    expect(tenant.map((a) => a.actionId).sort()).toEqual([f.aliceAction.action.id, f.bobAction.action.id].sort());
    expect((await listActions(t.db, contextOf(f.alice))).map((a) => a.id)).toEqual([f.aliceAction.action.id]);
    expect(await getActionDetail(t.db, contextOf(f.alice), f.bobAction.action.id)).toBeNull();
    expect(await getActionDetail(t.db, contextOf(f.adam), f.ginaAction.action.id)).toBeNull();
    expect(await getActionDetail(t.db, contextOf(f.sam), f.bobAction.action.id)).not.toBeNull();
  });

  it("support cannot approve; another tenant's or person's action is not_found; a stale version is a conflict", async () => {
    const body = { decision: "approve" as const, version: 3 };
    expect(await decideApproval(t.db, contextOf(f.sam), f.aliceAction.action.id, body)).toMatchObject({ ok: false, code: "forbidden" });
    expect(await decideApproval(t.db, contextOf(f.bob), f.aliceAction.action.id, body)).toMatchObject({ ok: false, code: "not_found" });
    expect(await decideApproval(t.db, contextOf(f.adam), f.ginaAction.action.id, body)).toMatchObject({ ok: false, code: "not_found" });
    expect(await decideApproval(t.db, contextOf(f.alice), f.aliceAction.action.id, { ...body, version: 2 })).toMatchObject({
      ok: false,
      code: "conflict",
    });
    expect(
      await decideApproval(t.db, contextOf(f.alice), f.aliceAction.action.id, { ...body, digest: "b".repeat(64) }),
    ).toMatchObject({ ok: false, code: "conflict" });
    const still = await t.db.approval.findUniqueOrThrow({ where: { id: f.aliceAction.approval.id } });
    expect(still.status).toBe("pending");
  });

  it("of concurrent approvals exactly one is recorded, and it is audited", async () => {
    const ctx = contextOf(f.alice);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => decideApproval(t.db, ctx, f.aliceAction.action.id, { decision: "approve", version: 3 })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.code === "conflict")).toBe(true);
    const approval = await t.db.approval.findUniqueOrThrow({ where: { id: f.aliceAction.approval.id } });
    expect(approval).toMatchObject({ status: "approved", decidedById: f.alice.id, decidedVia: "console" });
    const audit = await t.db.auditEvent.findMany({ where: { operation: "approval.approved", actionId: f.aliceAction.action.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ tenantId: "acme", userId: f.alice.id, face: "console" });
  });

  it("audit events: a member sees only rows for them; filters narrow; another tenant never appears", async () => {
    await t.db.auditEvent.createMany({
      data: [
        { tenantId: "acme", userId: f.alice.id, agentId: f.agent.id, face: "actions", operation: "action.started", capability: "checkout", arguments: { api_key: "sk_live_123", items: 2 }, outcome: "applied", latencyMs: 12 },
        { tenantId: "acme", userId: f.bob.id, face: "browse", operation: "page.navigated", target: "shop://orders", arguments: {}, outcome: "applied", latencyMs: 3 },
        { tenantId: "globex", userId: f.gina.id, face: "browse", operation: "page.navigated", target: "shop://orders", arguments: {}, outcome: "applied", latencyMs: 3 },
      ],
    });
    const member = await listAuditEvents(t.db, contextOf(f.alice), {});
    expect(member.every((e) => e.userId === f.alice.id)).toBe(true);
    const support = await listAuditEvents(t.db, contextOf(f.sam), { filter: { face: "browse" } });
    expect(support.map((e) => e.target)).toEqual(["shop://orders"]);
    expect(support.every((e) => e.userId === f.bob.id)).toBe(true);
    const started = await listAuditEvents(t.db, contextOf(f.sam), { filter: { target: "checkout", agentId: f.agent.id } });
    expect(started).toHaveLength(1);
    // Defence in depth: a credential-looking key is never shown, whatever a writer stored.
    expect(JSON.stringify(started[0]?.arguments)).not.toContain("sk_live_123");
    const forward = await listAuditEvents(t.db, contextOf(f.sam), { afterSeq: 0 });
    expect(forward.map((e) => e.seq)).toEqual([...forward.map((e) => e.seq)].sort((a, b) => a - b));
  });

  it("permission rules stay inside the tenant; a grant as rule goes to the top and is audited", async () => {
    const admin = contextOf(f.adam);
    expect(
      await createPermissionRule(t.db, admin, { subjectType: "agent", subjectId: f.globexAgent.id, verb: "submit", pattern: "shop://*", decision: "allow" }),
    ).toMatchObject({ ok: false, code: "not_found" });
    const deny = await createPermissionRule(t.db, admin, { subjectType: "tenant", verb: "submit", pattern: "shop://order/*/after-sales", decision: "deny" });
    expect(deny.ok).toBe(true);
    const gina = contextOf(f.gina);
    expect(await listPermissionRules(t.db, gina)).toEqual([]);
    const foreign = await createPermissionRule(t.db, gina, { subjectType: "tenant", verb: "*", pattern: "*", decision: "allow" });
    expect(foreign.ok).toBe(true);
    const acmeRules = await listPermissionRules(t.db, admin);
    expect(await reorderPermissionRules(t.db, admin, [...acmeRules.map((r) => r.id), foreign.ok ? foreign.value.id : ""])).toMatchObject({
      ok: false,
      code: "conflict",
    });
    const request = await t.db.permissionRequest.create({
      data: { tenantId: "acme", agentId: f.agent.id, verb: "submit", target: "shop://order/ord_paid/after-sales", status: "pending" },
    });
    expect(await decidePermissionRequest(t.db, gina, request.id, "grant_rule")).toMatchObject({ ok: false, code: "not_found" });
    const granted = await decidePermissionRequest(t.db, admin, request.id, "grant_rule");
    expect(granted).toMatchObject({ ok: true, value: { status: "granted" } });
    const rules = await listPermissionRules(t.db, admin);
    expect(rules[0]).toMatchObject({ subjectType: "agent", subjectId: f.agent.id, decision: "allow", pattern: "shop://order/ord_paid/after-sales" });
    expect(await decidePermissionRequest(t.db, admin, request.id, "deny")).toMatchObject({ ok: false, code: "conflict" });
    expect(await t.db.auditEvent.count({ where: { operation: "permission.granted", tenantId: "acme" } })).toBe(1);
  });

  it("mark resolved works only on unknown actions, for support and admins", async () => {
    const action = await t.db.action.create({
      data: { tenantId: "acme", userId: f.alice.id, capability: "checkout", node: "PAYMENT", version: 5, status: "unknown", state: {} },
    });
    await t.db.effect.create({
      data: { actionId: action.id, actionKey: `key-${action.id}`, tenantId: "acme", kind: "shop.payment", status: "unknown", request: {} },
    });
    const input = { outcome: "applied" as const, note: "payment found in legacy" };
    expect(await resolveAction(t.db, contextOf(f.alice), action.id, input)).toMatchObject({ ok: false, code: "forbidden" });
    expect(await resolveAction(t.db, contextOf(f.gina), action.id, input)).toMatchObject({ ok: false, code: "not_found" });
    expect(await resolveAction(t.db, contextOf(f.sam), action.id, input)).toMatchObject({ ok: true });
    expect(await t.db.effect.findUniqueOrThrow({ where: { actionId: action.id } })).toMatchObject({ status: "applied" });
    expect(await resolveAction(t.db, contextOf(f.sam), action.id, input)).toMatchObject({ ok: false, code: "conflict" });
  });
});
