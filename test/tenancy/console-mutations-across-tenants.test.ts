// stays-whole: one rule (no console mutation crosses tenants) checked route by route on one world.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cutOffConnector, disconnect } from "@/server/gateway/connections/connect-flow";
import { saveConnection } from "@/server/gateway/connections/person-connections";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";
import type { ConsoleResult } from "@/server/gateway/console/console-result";
import { createAgent, revokeAgent, setAgentFaces } from "@/server/gateway/console/manage-agents";
import {
  listConnectors,
  replaceConnectorSecret,
  updateConnectorSettings,
} from "@/server/gateway/console/manage-connectors";
import {
  createPermissionRule,
  deletePermissionRule,
  reorderPermissionRules,
  updatePermissionRule,
} from "@/server/gateway/console/manage-permissions";
import {
  readNotificationPreferences,
  saveNotificationPreferences,
} from "@/server/gateway/console/notification-preferences";
import { createGateway, type Gateway } from "@/server/gateway/create-gateway";
import { readSecret } from "@/server/gateway/vault";
import { type SsoConfig, ssoClientSecretRef } from "@/server/oauth/console-sso";
import { readSignInSettings, saveSignInSettings } from "@/server/oauth/sign-in-settings";
import { approve, checkoutToConfirmation, createWorld, idem, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { peopleOfEveryRole, type Role, type Someone, type Tenant } from "./tenancy-world";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Every console route file that exports a mutating handler, as `app/api/console/…/route.ts`. */
function mutatingConsoleRoutes(): string[] {
  const dir = join(root, "app/api/console");
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "route.ts") continue;
    const file = join(entry.parentPath, entry.name);
    const source = readFileSync(file, "utf8");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"])
      if (new RegExp(`export const ${method}\\b|as ${method}\\b`).test(source))
        out.push(`${method} ${relative(root, file)}`);
  }
  return out.sort();
}

type Result = ConsoleResult<unknown>;
type Case = {
  /** `METHOD app/api/console/…/route.ts`: the route whose handler makes this call. */
  route: string;
  /** The role the route lets in: the other tenant's person of this role makes the attempt. */
  role: Role;
  /** A fresh object of Acme's for this case, returned as what the attempt needs. */
  make: () => Promise<string>;
  /** What the route's handler calls, as the given person. */
  attempt: (who: Someone, id: string) => Promise<Result>;
  /** What Acme's object looks like (must not move when Globex tries). */
  state: (id: string) => Promise<unknown>;
  /** What Acme's own person of the same role gets: proves the object is there to be found. */
  home: Record<string, unknown>;
};

describeEachProvider("console mutations across tenants (%s)", (provider) => {
  let w: World;
  let gw: Gateway;
  let people: Record<Tenant, Record<Role, Someone>>;
  beforeAll(async () => {
    w = await createWorld(provider);
    people = await peopleOfEveryRole(w);
    gw = createGateway({ db: w.db });
    // The routes call the console's process-wide gateway: point it at this world's database.
    (globalThis as { __signpostConsoleGateway?: Gateway }).__signpostConsoleGateway = gw;
  });
  afterAll(async () => {
    (globalThis as { __signpostConsoleGateway?: Gateway }).__signpostConsoleGateway = undefined;
    await w?.close();
  });

  const acmeAgent = async () => {
    const created = await createAgent(w.db, people.acme.admin.console, {
      name: `bot-${Math.random().toString(36).slice(2, 8)}`,
      userId: people.acme.member.userId,
    });
    if (!created.ok) throw new Error(created.message);
    return created.value.agent.id;
  };
  const acmeRule = async () => {
    const created = await createPermissionRule(w.db, people.acme.admin.console, {
      subjectType: "role",
      subjectId: "member",
      verb: "navigate",
      pattern: `shop://order/ord_${Math.random().toString(36).slice(2, 8)}`,
      decision: "deny",
    });
    if (!created.ok) throw new Error(created.message);
    return (created.value as { id: string }).id;
  };
  const acmeApproval = async () => {
    const started = await checkoutToConfirmation(w, people.acme.member.agent);
    if (!started.action_id) throw new Error(JSON.stringify(started));
    return started.action_id;
  };
  // A charge that went through: approved by the person it is for, confirmed by their agent.
  const acmeCharge = async () => {
    const id = await acmeApproval();
    const approved = await approve(w, id, people.acme.member.person);
    if (approved.outcome !== "applied") throw new Error(JSON.stringify(approved));
    const confirmed = await w.gw.confirmAction(people.acme.member.agent, {
      action_id: id,
      idempotency_key: idem(),
    });
    if (confirmed.outcome !== "applied") throw new Error(JSON.stringify(confirmed));
    return id;
  };
  const actionState = (id: string) =>
    w.db.action.findUniqueOrThrow({
      where: { id },
      select: {
        version: true,
        status: true,
        node: true,
        approvals: { select: { status: true } },
        effect: { select: { status: true, attempts: true } },
      },
    });
  const gatewayCall =
    (call: (who: Someone, id: string) => Promise<{ outcome: string; reason?: string; message?: string }>) =>
    async (who: Someone, id: string) =>
      fromGatewayOutcome(await call(who, id));

  const cases: Case[] = [
    {
      route: "POST app/api/console/agents/[id]/revoke/route.ts",
      role: "admin",
      make: acmeAgent,
      attempt: (who, id) => revokeAgent(w.db, who.console, id),
      state: (id) => w.db.agent.findUniqueOrThrow({ where: { id }, select: { revokedAt: true } }),
      home: { ok: true },
    },
    {
      route: "POST app/api/console/agents/[id]/faces/route.ts",
      role: "admin",
      make: acmeAgent,
      // Giving another tenant's key the script face (what its agent may run).
      attempt: (who, id) => setAgentFaces(w.db, who.console, id, { faces: ["actions", "script"] }),
      state: (id) => w.db.agent.findUniqueOrThrow({ where: { id }, select: { faces: true } }),
      home: { ok: true },
    },
    {
      route: "POST app/api/console/agents/route.ts",
      role: "admin",
      // Minting a key for a person of another tenant.
      make: async () => people.acme.member.userId,
      attempt: (who, userId) => createAgent(w.db, who.console, { name: "borrowed", userId }),
      state: (userId) => w.db.agent.count({ where: { userId } }),
      home: { ok: true },
    },
    {
      route: "POST app/api/console/permissions/rules/route.ts",
      role: "admin",
      // A rule for another tenant's agent.
      make: acmeAgent,
      attempt: (who, agentId) =>
        createPermissionRule(w.db, who.console, {
          subjectType: "agent",
          subjectId: agentId,
          verb: "*",
          pattern: "**",
          decision: "allow",
        }),
      state: (agentId) => w.db.permissionRule.count({ where: { subjectType: "agent", subjectId: agentId } }),
      home: { ok: true },
    },
    {
      route: "PUT app/api/console/permissions/rules/[id]/route.ts",
      role: "admin",
      make: acmeRule,
      attempt: (who, id) =>
        updatePermissionRule(w.db, who.console, id, {
          subjectType: "role",
          subjectId: "member",
          verb: "*",
          pattern: "**",
          decision: "allow",
        }),
      state: (id) => w.db.permissionRule.findUniqueOrThrow({ where: { id } }),
      home: { ok: true },
    },
    {
      route: "DELETE app/api/console/permissions/rules/[id]/route.ts",
      role: "admin",
      make: acmeRule,
      attempt: (who, id) => deletePermissionRule(w.db, who.console, id),
      state: (id) => w.db.permissionRule.findUnique({ where: { id } }),
      home: { ok: true },
    },
    {
      route: "POST app/api/console/permissions/requests/[id]/route.ts",
      role: "admin",
      make: async () => {
        const asked = await w.gw.requestPermission(people.acme.member.agent, {
          verb: "navigate",
          target: `shop://orders/${Math.random().toString(36).slice(2, 8)}`,
        });
        const id = (asked.permission_request as { id?: string } | undefined)?.id;
        if (!id) throw new Error(JSON.stringify(asked));
        return id;
      },
      attempt: gatewayCall((who, request_id) =>
        getConsoleGateway().decidePermissionRequest(consolePerson(who.console), {
          request_id,
          decision: "grant",
          mode: "rule",
        }),
      ),
      state: (id) => w.db.permissionRequest.findUniqueOrThrow({ where: { id }, select: { status: true } }),
      home: { ok: true },
    },
    ...(["member", "admin", "support"] as const).map(
      (role): Case => ({
        route: "POST app/api/console/actions/[id]/decision/route.ts",
        role,
        make: acmeApproval,
        attempt: gatewayCall(async (who, action_id) => {
          const { version } = await actionState(action_id);
          return getConsoleGateway().decideApproval(consolePerson(who.console), {
            action_id,
            version,
            decision: "approve",
          });
        }),
        state: actionState,
        // Checkout is approved by the person it is for: Acme's member approves; Acme's admin
        // and support find the action and are told it is not theirs to approve.
        home:
          role === "member"
            ? { ok: true }
            : { ok: false, code: "forbidden", details: { reason: "not_your_approval" } },
      }),
    ),
    ...(["support", "admin"] as const).flatMap((role): Case[] => [
      {
        route: "POST app/api/console/actions/[id]/resolve/route.ts",
        role,
        make: acmeCharge,
        attempt: gatewayCall((who, action_id) =>
          getConsoleGateway().resolveRecovery(consolePerson(who.console), {
            action_id,
            resolution: "not_applied",
            note: "checked at the bank",
          }),
        ),
        state: actionState,
        // Found, and refused: an applied charge is not in the recovery queue.
        home: { ok: false, code: "conflict", details: { reason: "not_in_recovery_queue" } },
      },
      {
        route: "POST app/api/console/actions/[id]/retry/route.ts",
        role,
        make: acmeCharge,
        attempt: gatewayCall((who, action_id) =>
          getConsoleGateway().recoverAction(consolePerson(who.console), { action_id }),
        ),
        state: actionState,
        // Found: the charge was verified when it was confirmed, so there is nothing to recover
        // (an answer that changes nothing).
        home: { ok: true, value: { outcome: "applied", status: "completed" } },
      },
      {
        route: "POST app/api/console/actions/[id]/verify/route.ts",
        role,
        make: acmeCharge,
        attempt: gatewayCall((who, action_id) =>
          getConsoleGateway().verifyAction(consolePerson(who.console), { action_id }),
        ),
        state: actionState,
        home: { ok: true },
      },
    ]),
  ];

  for (const c of cases)
    it(`${c.route} as ${c.role}: another tenant's object is not_found and stays as it was`, async () => {
      const id = await c.make();
      const before = await c.state(id);
      const theirs = await c.attempt(people.globex[c.role], id);
      expect(theirs, JSON.stringify(theirs)).toMatchObject({ ok: false, code: "not_found" });
      expect(await c.state(id)).toEqual(before);
      const ours = await c.attempt(people.acme[c.role], id);
      expect(ours, JSON.stringify(ours)).toMatchObject(c.home);
    });

  it("POST app/api/console/permissions/reorder/route.ts: another tenant's rule ids reorder nothing", async () => {
    const ids = [await acmeRule(), await acmeRule()];
    const positions = () =>
      w.db.permissionRule.findMany({ where: { id: { in: ids } }, select: { id: true, position: true } });
    const before = await positions();
    // Globex's own list is not these ids: the list "changed since it was loaded".
    expect(await reorderPermissionRules(w.db, people.globex.admin.console, [...ids].reverse())).toMatchObject(
      {
        ok: false,
        code: "conflict",
      },
    );
    expect(await positions()).toEqual(before);
  });

  // Routes that name no object: they act on the caller's own tenant (or own person) by
  // construction. A write by Globex must leave Acme's copy as it was.
  it("secrets, connector settings and notification preferences are per tenant: Globex's writes leave Acme's alone", async () => {
    const acme = people.acme.admin.console;
    const globex = people.globex.admin.console;
    const acmeKey = await readSecret(w.db, { tenantId: "acme", connector: "shop", name: "api_key" });
    const acmeConnectors = await listConnectors(w.db, acme);
    const acmePrefs = await readNotificationPreferences(w.db, people.acme.member.console);
    // (A new origin drops the tenant's secrets for that connector: settings first, then the key.)
    expect(
      await updateConnectorSettings(w.db, globex, "shop", { baseUrl: "http://127.0.0.1:9", enabled: false }),
    ).toMatchObject({ ok: true });
    expect(await replaceConnectorSecret(w.db, globex, "shop", "api_key", "sk_globex_new")).toMatchObject({
      ok: true,
    });
    await saveNotificationPreferences(w.db, people.globex.member.console, {
      notifyEmail: !acmePrefs.notifyEmail,
      notifyBrowser: !acmePrefs.notifyBrowser,
    });
    expect(await readSecret(w.db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBe(acmeKey);
    expect(await readSecret(w.db, { tenantId: "globex", connector: "shop", name: "api_key" })).toBe(
      "sk_globex_new",
    );
    expect(await listConnectors(w.db, acme)).toEqual(acmeConnectors);
    expect(await readNotificationPreferences(w.db, people.acme.member.console)).toEqual(acmePrefs);
  });

  // The company sign-in serves one tenant (SIGNPOST_SSO_TENANT): its admin's changes stay in it,
  // and another tenant's admin cannot reach it through the same route.
  it("sign-in settings are per tenant: the SSO tenant's admin turns passwords off and sets the secret; Acme's stay", async () => {
    const sso: SsoConfig = {
      SIGNPOST_SSO_ISSUER: "https://idp.globex.example",
      SIGNPOST_SSO_CLIENT_ID: "signpost",
      SIGNPOST_SSO_TENANT: "globex",
      SIGNPOST_SSO_EMAIL_DOMAIN: "globex.example",
      SIGNPOST_SSO_ROLE_CLAIM: "signpost_role",
    };
    const acme = people.acme.admin.console;
    const globex = people.globex.admin.console;
    const acmeBefore = await readSignInSettings(w.db, acme, sso);
    expect(
      await saveSignInSettings(w.db, globex, { sso_client_secret: "globex-client-secret" }, sso),
    ).toMatchObject({ ok: true });
    expect(await saveSignInSettings(w.db, globex, { password_sign_in: false }, sso)).toMatchObject({
      ok: true,
    });
    // Acme's admin names nothing of Globex's: the same route refuses, and writes nothing.
    expect(await saveSignInSettings(w.db, acme, { password_sign_in: false }, sso)).toMatchObject({
      ok: false,
    });
    expect(
      await saveSignInSettings(w.db, acme, { sso_client_secret: "acme-overwrites-globex" }, sso),
    ).toMatchObject({ ok: false });
    expect(await readSignInSettings(w.db, acme, sso)).toEqual(acmeBefore);
    expect(await readSecret(w.db, ssoClientSecretRef("acme"))).toBeNull();
    expect(await readSecret(w.db, ssoClientSecretRef("globex"))).toBe("globex-client-secret");
    expect(await readSignInSettings(w.db, globex, sso)).toMatchObject({
      password_sign_in: false,
      sso: { client_secret: "vault" },
    });
  });

  // A person's connections name no object but the connector: each call acts on the caller's own
  // tenant (and, for Disconnect, the caller's own connection) by construction.
  it("people's connections: Globex's Disconnect and cut-off leave Acme's connection and connector alone", async () => {
    const acmeMember = people.acme.member;
    await saveConnection(
      w.db,
      { tenantId: "acme", userId: acmeMember.userId, connector: "shop" },
      { accessToken: "acme-member-access-token-0001", scopes: ["read"] },
    );
    const row = () =>
      w.db.personConnection.findMany({ where: { tenantId: "acme" }, select: { id: true, updatedAt: true } });
    const before = await row();
    expect(await disconnect(w.db, people.globex.member.console, "shop")).toMatchObject({
      ok: false,
      status: 404,
    });
    expect(await disconnect(w.db, people.globex.admin.console, "shop")).toMatchObject({ ok: false });
    expect(await cutOffConnector(w.db, people.globex.admin.console, "shop")).toMatchObject({ ok: false });
    expect(await row()).toEqual(before);
    expect(
      (
        await w.db.connectorConfig.findUniqueOrThrow({
          where: { tenantId_connector: { tenantId: "acme", connector: "shop" } },
        })
      ).enabled,
    ).toBe(true);
    // Acme's own member disconnects their own.
    expect(await disconnect(w.db, acmeMember.console, "shop")).toMatchObject({ ok: true });
    expect(await row()).toEqual([]);
  });

  it("covers every mutating console route", () => {
    const covered = new Set([
      ...cases.map((c) => c.route),
      "POST app/api/console/permissions/reorder/route.ts",
      "PUT app/api/console/config/[connector]/secrets/[name]/route.ts",
      "PUT app/api/console/config/[connector]/settings/route.ts",
      "PUT app/api/console/settings/notifications/route.ts",
      "PUT app/api/console/settings/sign-in/route.ts",
      // The caller's own connection / the caller's own tenant's connector: the case above.
      "DELETE app/api/console/connections/[connector]/route.ts",
      "POST app/api/console/connections/[connector]/cut-off/route.ts",
      // Imports into the caller's own tenant only: test/connectors/openapi/console-import-route.test.ts.
      "POST app/api/console/config/import/route.ts",
      // Read-only questions sent as POST (nothing is written, nothing of another tenant named).
      "POST app/api/console/config/[connector]/test/route.ts",
      "POST app/api/console/permissions/test/route.ts",
    ]);
    expect(mutatingConsoleRoutes()).toEqual([...covered].sort());
  });
});
