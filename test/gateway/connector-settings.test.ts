import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectorSettingsInputSchema,
  listConnectors,
  replaceConnectorSecret,
  testConnectorConnection,
  updateConnectorSettings,
} from "@/server/gateway/console/manage-connectors";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { readSecret } from "@/server/gateway/vault";
import { allowEgressTo } from "../helpers/allow-egress";
import { describeEachProvider } from "../helpers/database";
import { checkoutToConfirmation, createWorld, grant, idem, type World } from "./gateway-world";

// Protects two findings of the security review:
// 1. A write-only connector secret is bound to the origin it was entered for: moving baseUrl to
//    another scheme/host/port deletes it (audited by name), so an admin cannot read the key back
//    by pointing the connector at a listener of their own; a path-only change keeps it. Test
//    connection says nothing of the remote body beyond the status.
// 2. A connector an admin disabled is not called by agents: their operations answer
//    temporarily_unavailable naming the connector, and nothing reaches the legacy system.

type Seen = { method: string; url: string; headers: IncomingHttpHeaders };

/** A tiny HTTP listener that records every request and answers like a friendly health endpoint. */
async function listener(answer: { status: number; body: unknown }) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    req.resume();
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  allowEgressTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A forwarding proxy in front of the real legacy system, counting what passes through it. */
async function countingProxy(target: string) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && !["host", "connection", "content-length", "transfer-encoding"].includes(k))
        headers.set(k, Array.isArray(v) ? v.join(", ") : v);
    try {
      const up = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(up.status, { "content-type": up.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await up.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  allowEgressTo(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const consoleContext = (w: World, who: "adam" | "alice"): ConsoleContext => {
  const p = w.person[who];
  return {
    sessionId: "test",
    tenantId: p.tenantId,
    tenantName: p.tenantId,
    userId: p.userId as string,
    email: p.email as string,
    name: p.name as string,
    role: p.role as ConsoleContext["role"],
  };
};

async function lastSettingsAudit(w: World) {
  return w.db.auditEvent.findFirstOrThrow({
    where: { tenantId: "acme", operation: "connector.settings_updated" },
    orderBy: { seq: "desc" },
  });
}

async function shopSecretState(w: World, admin: ConsoleContext) {
  const shop = (await listConnectors(w.db, admin)).find((c) => c.connector === "shop");
  return shop?.secrets.find((s) => s.name === "api_key");
}

describeEachProvider("connector settings on %s", (provider) => {
  let w: World;
  let admin: ConsoleContext;
  beforeAll(async () => {
    w = await createWorld(provider);
    admin = consoleContext(w, "adam");
  }, 60_000);
  afterAll(async () => w?.close());

  /** Puts acme's shop back on the real legacy system with the right key. */
  async function restoreShop() {
    const out = await updateConnectorSettings(w.db, admin, "shop", { baseUrl: w.legacy.url, enabled: true });
    expect(out.ok).toBe(true);
    await replaceConnectorSecret(w.db, admin, "shop", "api_key", w.legacy.apiKeys.acme);
  }

  describe("a secret is bound to its origin", () => {
    it("moving baseUrl to another origin clears the key (audited by name); test connection sends no key there", async () => {
      const secret = "lk_SUPERSECRETvalue123";
      const evil = await listener({ status: 200, body: { ok: true, tenant: "REMOTE_BODY_MARKER" } });
      try {
        await replaceConnectorSecret(w.db, admin, "shop", "api_key", secret);
        expect((await shopSecretState(w, admin))?.set).toBe(true);

        const moved = await updateConnectorSettings(w.db, admin, "shop", { baseUrl: evil.url });
        expect(moved).toMatchObject({
          ok: true,
          value: { connector: "shop", baseUrl: evil.url, originChanged: true, secretsCleared: ["api_key"] },
        });
        if (!moved.ok) throw new Error("unreachable");
        expect(moved.value.message).toMatch(/API key was cleared because the address changed/);

        // Listed as not set; gone from the vault; the audit row names it and never holds the value.
        expect(await shopSecretState(w, admin)).toMatchObject({ set: false, updatedAt: null });
        expect(await readSecret(w.db, { tenantId: "acme", connector: "shop", name: "api_key" })).toBeNull();
        const row = await lastSettingsAudit(w);
        expect(row.arguments).toMatchObject({
          baseUrl: evil.url,
          origin_changed: true,
          cleared: ["api_key"],
        });
        expect(row.message).toMatch(/API key was cleared/);
        expect(JSON.stringify(row)).not.toContain("SUPERSECRET");

        // Test connection and an agent's call: no key, so nothing is sent to the new address.
        const tested = await testConnectorConnection(w.db, admin, "shop");
        expect(tested).toMatchObject({ ok: true, value: { ok: false, result: "no_key", status: null } });
        const agent = await checkoutToConfirmation(w);
        expect(agent.outcome).toBe("temporarily_unavailable");
        expect(evil.seen).toEqual([]);

        // The listener does catch a key when one is entered for its address (so the check above can
        // fail), and test connection passes on nothing of the remote body.
        await replaceConnectorSecret(w.db, admin, "shop", "api_key", "lk_entered_for_the_listener");
        const again = await testConnectorConnection(w.db, admin, "shop");
        expect(again).toMatchObject({ ok: true, value: { ok: true, result: "connected", status: 200 } });
        expect(JSON.stringify(again)).not.toContain("REMOTE_BODY_MARKER");
        expect(evil.seen.map((s) => s.headers.authorization)).toEqual(["Bearer lk_entered_for_the_listener"]);
        expect(JSON.stringify(evil.seen)).not.toContain("SUPERSECRET");
      } finally {
        await evil.close();
        await restoreShop();
      }
    });

    it("a change that keeps the origin (path, enabled) keeps the key", async () => {
      await replaceConnectorSecret(w.db, admin, "shop", "api_key", w.legacy.apiKeys.acme);
      const before = await shopSecretState(w, admin);
      const samePath = await updateConnectorSettings(w.db, admin, "shop", { baseUrl: `${w.legacy.url}/v2/` });
      expect(samePath).toMatchObject({
        ok: true,
        value: { originChanged: false, secretsCleared: [], message: "Settings saved." },
      });
      expect(await shopSecretState(w, admin)).toEqual(before);
      expect((await lastSettingsAudit(w)).arguments).toMatchObject({ origin_changed: false, cleared: [] });
      expect(await testConnectorConnection(w.db, admin, "shop")).toMatchObject({
        ok: true,
        value: { ok: true, result: "connected", message: "Connected." },
      });
      await restoreShop();
      expect(await checkoutToConfirmation(w)).toMatchObject({ outcome: "applied", node: "CONFIRM_ORDER" });
    });

    it("another scheme or port is another origin; without a settings row the default address is the old origin", async () => {
      const other = new URL(w.legacy.url);
      other.port = String(Number(other.port) + 1);
      await replaceConnectorSecret(w.db, admin, "helpdesk", "api_key", w.legacy.apiKeys.acme);
      const moved = await updateConnectorSettings(w.db, admin, "helpdesk", { baseUrl: other.origin });
      expect(moved).toMatchObject({ ok: true, value: { originChanged: true, secretsCleared: ["api_key"] } });

      // A tenant whose connector never had settings used the default URL: the key belongs to it.
      await w.db.connectorConfig.deleteMany({ where: { tenantId: "acme", connector: "helpdesk" } });
      await replaceConnectorSecret(w.db, admin, "helpdesk", "api_key", w.legacy.apiKeys.acme);
      const prev = process.env.SIGNPOST_LEGACY_URL;
      process.env.SIGNPOST_LEGACY_URL = w.legacy.url;
      try {
        const kept = await updateConnectorSettings(w.db, admin, "helpdesk", { baseUrl: `${w.legacy.url}/` });
        expect(kept).toMatchObject({ ok: true, value: { originChanged: false, secretsCleared: [] } });
        await w.db.connectorConfig.deleteMany({ where: { tenantId: "acme", connector: "helpdesk" } });
        const https = await updateConnectorSettings(w.db, admin, "helpdesk", {
          baseUrl: w.legacy.url.replace(/^http:/, "https:"),
        });
        expect(https).toMatchObject({
          ok: true,
          value: { originChanged: true, secretsCleared: ["api_key"] },
        });
      } finally {
        if (prev === undefined) delete process.env.SIGNPOST_LEGACY_URL;
        else process.env.SIGNPOST_LEGACY_URL = prev;
        await updateConnectorSettings(w.db, admin, "helpdesk", { baseUrl: w.legacy.url });
        await replaceConnectorSecret(w.db, admin, "helpdesk", "api_key", w.legacy.apiKeys.acme);
      }
    });

    it("refuses an address with credentials in it", () => {
      expect(connectorSettingsInputSchema.safeParse({ baseUrl: "http://user:pw@127.0.0.1:1" }).success).toBe(
        false,
      );
      expect(connectorSettingsInputSchema.safeParse({ baseUrl: "ftp://127.0.0.1" }).success).toBe(false);
      expect(connectorSettingsInputSchema.safeParse({ baseUrl: "https://legacy.example/api" }).success).toBe(
        true,
      );
    });
  });

  describe("a disabled connector is not called", () => {
    it("agents get temporarily_unavailable naming the connector, nothing reaches the legacy system; re-enabled, it works", async () => {
      const proxy = await countingProxy(w.legacy.url);
      try {
        // Route acme's shop through the counting proxy (another origin: the key is entered again).
        await updateConnectorSettings(w.db, admin, "shop", { baseUrl: proxy.url });
        await replaceConnectorSecret(w.db, admin, "shop", "api_key", w.legacy.apiKeys.acme);
        expect(
          (await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" })).outcome,
        ).not.toBe("temporarily_unavailable");
        expect(proxy.seen.length).toBeGreaterThan(0);

        const off = await updateConnectorSettings(w.db, admin, "shop", {
          baseUrl: proxy.url,
          enabled: false,
        });
        expect(off).toMatchObject({ ok: true, value: { enabled: false, secretsCleared: [] } });
        expect((await listConnectors(w.db, admin)).find((c) => c.connector === "shop")?.enabled).toBe(false);
        proxy.seen.length = 0;

        const started = await checkoutToConfirmation(w);
        expect(started).toMatchObject({ outcome: "temporarily_unavailable", retryable: true });
        expect(started.message).toMatch(/shop connector is disabled by an admin/);
        const order = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
        expect(order).toMatchObject({ outcome: "temporarily_unavailable" });
        expect(order.message).toMatch(/shop connector is disabled by an admin/);
        await expect(w.gw.adapterFor(w.agent.alice, "shop")).rejects.toThrow(/disabled by an admin/);
        const tested = await testConnectorConnection(w.db, admin, "shop");
        expect(tested).toMatchObject({ ok: true, value: { ok: false, result: "disabled", status: null } });
        if (tested.ok) expect(tested.value.message).toMatch(/disabled by an admin/);
        expect(proxy.seen).toEqual([]);

        // Only this tenant's shop is off: globex and acme's helpdesk still work.
        expect(
          await w.gw.getContext(w.agent.gina, { entity: "order", entity_id: "ord_globex_paid" }),
        ).toMatchObject({ outcome: "applied", view: { id: "ord_globex_paid" } });

        const on = await updateConnectorSettings(w.db, admin, "shop", { baseUrl: proxy.url, enabled: true });
        expect(on).toMatchObject({ ok: true, value: { enabled: true, secretsCleared: [] } });
        const resumed = await checkoutToConfirmation(w);
        expect(resumed).toMatchObject({ outcome: "applied", node: "CONFIRM_ORDER" });
        expect(proxy.seen.length).toBeGreaterThan(0);
        expect(await testConnectorConnection(w.db, admin, "shop")).toMatchObject({
          ok: true,
          value: { ok: true, result: "connected" },
        });
      } finally {
        await proxy.close();
        await restoreShop();
      }
    });

    it("a confirm while disabled claims nothing: no effect is left pending, and once re-enabled the confirm applies once", async () => {
      const started = await checkoutToConfirmation(w);
      expect(started.outcome).toBe("applied");
      const id = started.action_id as string;
      expect((await grant(w, id)).outcome).toBe("applied");
      try {
        await updateConnectorSettings(w.db, admin, "shop", { baseUrl: w.legacy.url, enabled: false });
        const refused = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
        expect(refused).toMatchObject({ outcome: "temporarily_unavailable", retryable: true });
        expect(refused.message).toMatch(/disabled by an admin/);
        expect(await w.db.effect.findUnique({ where: { actionId: id } })).toBeNull();
      } finally {
        await restoreShop();
      }
      const confirmed = await w.gw.confirmAction(w.agent.alice, { action_id: id, idempotency_key: idem() });
      expect(confirmed).toMatchObject({ outcome: "applied", effect: { status: "applied" } });
    });
  });
});
