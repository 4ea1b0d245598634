// stays-whole: one flow (a person's own connection) end to end on one world and one token server.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { registerConnector, resetInstalledConnectors } from "@/server/connectors/connector-registry";
import { tenantConnectors } from "@/server/connectors/tenant-connectors";
import {
  cutOffConnector,
  disconnect,
  listMyConnections,
  listTenantConnections,
} from "@/server/gateway/connections/connect-flow";
import { handleConnectCallback, handleConnectStart } from "@/server/gateway/connections/connect-pages";
import { importOpenApiConnector } from "@/server/gateway/console/import-openapi-connector";
import { replaceConnectorSecret, updateConnectorSettings } from "@/server/gateway/console/manage-connectors";
import { createPermissionRule } from "@/server/gateway/console/manage-permissions";
import { cliActor } from "@/server/gateway/console/record-console-audit";
import { chromiumAvailable, launchChromium } from "../e2e/helpers/chromium";
import { approve, grant } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import { handleNode } from "../helpers/serve-route";
import { createMcpWorld, type McpWorld } from "../mcp/mcp-world";
import { consoleSessionFor } from "../oauth/oauth-world";
import { notesConnector } from "./notes-connector";
import { startUpstreamSystem, UPSTREAM_CLIENT } from "./upstream-system";

// Protects: a connector that acts as each person. An agent's call with no connection answers
// `connection_required` with the console's connect link; the person connects in real Chromium
// through a real OAuth server (oidc-provider) with PKCE and a state bound to them; the agent's
// retry then reads that person's own records at an API that checks the token's subject. Tokens
// refresh when expired, are dropped when the system refuses them, revoked on disconnect, and
// never reach a tool result, an audit row or a listing.
const run: typeof describeEachProvider = chromiumAvailable()
  ? describeEachProvider
  : (name, fn) => describe.skip(name, () => fn("sqlite"));
if (!chromiumAvailable())
  console.warn("[signpost] /usr/bin/chromium missing: per-person connections SKIPPED");

type Page = { text: string; structured: Record<string, unknown> };

run("per-person connections to a system (%s)", (provider) => {
  let w: McpWorld;
  let upstream: Awaited<ReturnType<typeof startUpstreamSystem>>;
  let consoleUrl: string;
  let closeConsole: () => Promise<void>;
  const previousPublicUrl = process.env.SIGNPOST_PUBLIC_URL;
  const clients: Record<string, Client> = {};

  async function navigate(who: "alice" | "adam" | "gina", uri: string): Promise<Page> {
    clients[who] ??= await w.connect(w.keys[who], { faces: "browse" });
    const result = (await clients[who].callTool({ name: "navigate", arguments: { uri } })) as {
      content: Array<{ type: string; text?: string }>;
      structuredContent: Record<string, unknown>;
    };
    return { text: result.content.map((c) => c.text ?? "").join("\n"), structured: result.structuredContent };
  }

  /** The person opens the relayed link in their own signed-in browser and consents at the system. */
  async function connectInChromium(email: string, login: string, link: string) {
    const browser = await launchChromium();
    try {
      const session = await consoleSessionFor(w.db, email);
      await browser.context.addCookies([{ name: "sp_session", value: session, url: consoleUrl }]);
      const page = await browser.context.newPage();
      await page.goto(link);
      // oidc-provider's own sign-in and consent pages (devInteractions).
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill("any");
      await page.locator('button[type="submit"]').click();
      await page.locator('button[type="submit"]').click();
      await page.getByTestId("connected").waitFor({ timeout: 15_000 });
      return await page.content();
    } finally {
      await browser.close();
    }
  }

  beforeAll(async () => {
    // The console's connect pages on a real port, as the app's route files serve them.
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      void handleNode(
        async (request) => {
          const m = /^\/connect\/([^/]+)$/.exec(path);
          if (m) return handleConnectStart(w.db, request, m[1] as string, consoleUrl);
          if (path === "/connect-callback") return handleConnectCallback(w.db, request, consoleUrl);
          return new Response("not found", { status: 404 });
        },
        req,
        res,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    consoleUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeConsole = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    process.env.SIGNPOST_PUBLIC_URL = consoleUrl;
    upstream = await startUpstreamSystem(`${consoleUrl}/connect-callback`);
    const added = registerConnector(notesConnector(upstream));
    if (!added.ok) throw new Error(added.problem);
    w = await createMcpWorld(provider);
    // The admin sets the OAuth client through the console's own functions: id in settings, secret in the vault.
    const admin = { ...w.person.adam, sessionId: "s_adam", tenantName: "Acme", role: "admin" as const };
    const set = await updateConnectorSettings(w.db, admin, "notes", {
      baseUrl: upstream.apiUrl,
      values: { oauth_client_id: UPSTREAM_CLIENT.id },
    });
    expect(set.ok).toBe(true);
    const secret = await replaceConnectorSecret(
      w.db,
      admin,
      "notes",
      "oauth_client_secret",
      UPSTREAM_CLIENT.secret,
    );
    expect(secret.ok).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await w?.close();
    await upstream?.close();
    await closeConsole?.();
    resetInstalledConnectors();
    if (previousPublicUrl === undefined) delete process.env.SIGNPOST_PUBLIC_URL;
    else process.env.SIGNPOST_PUBLIC_URL = previousPublicUrl;
  });

  it("asks to connect first, then each person's agent reads only that person's records", async () => {
    const before = upstream.served();
    const first = await navigate("alice", "notes://mine");
    expect(first.structured.outcome).toBe("connection_required");
    const link = `${consoleUrl}/connect/notes`;
    expect(first.text).toContain(link);
    expect(upstream.served()).toBe(before); // nothing was sent without her token

    const html = await connectInChromium("alice@acme.test", "alice", link);
    expect(html).toContain("Team Notes");
    const mine = await navigate("alice", "notes://mine");
    expect(mine.structured.outcome).toBe("applied");
    expect(mine.text).toContain("Alice's plan for Q3");
    expect(mine.text).not.toContain("Adam's");

    // Adam has not connected: Alice's connection is never used for him.
    expect((await navigate("adam", "notes://mine")).structured.outcome).toBe("connection_required");
    await connectInChromium("adam@acme.test", "adam", link);
    const his = await navigate("adam", "notes://mine");
    expect(his.text).toContain("Adam's budget notes");
    expect(his.text).not.toContain("Alice's");

    // Another tenant's person is never served by Acme's connections (nor its connector settings).
    expect((await navigate("gina", "notes://mine")).structured.outcome).not.toBe("applied");

    const listed = await listMyConnections(w.db, w.person.alice);
    expect(listed).toEqual([
      expect.objectContaining({ connector: "notes", title: "Team Notes", scopes: ["notes:read"] }),
    ]);
    const all = await listTenantConnections(w.db, "acme");
    expect(all.map((c) => c.email).sort()).toEqual(["adam@acme.test", "alice@acme.test"]);
  }, 90_000);

  it("keeps tokens out of rows, results and listings, sealed per person", async () => {
    const tokens = [...new Set(upstream.tokensSeen)];
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const rows = await w.db.personConnection.findMany();
    const audit = await w.db.auditEvent.findMany();
    const text = JSON.stringify({ rows, audit, listed: await listTenantConnections(w.db, "acme") });
    for (const t of tokens) expect(text).not.toContain(t);
    expect(
      audit.some((a) => a.operation === "connection.connected" && a.userId === w.person.alice.userId),
    ).toBe(true);
    // A sealed token moved to another person's row does not open: that call asks to connect.
    const alice = rows.find((r) => r.userId === w.person.alice.userId);
    const adam = rows.find((r) => r.userId === w.person.adam.userId);
    await w.db.personConnection.update({
      where: { id: adam?.id },
      data: { accessToken: alice?.accessToken },
    });
    const moved = await navigate("adam", "notes://mine");
    expect(moved.structured.outcome).toBe("connection_required");
    expect(moved.text).not.toContain("Alice's");
    // It was dropped, not used: Adam's own (untouched) connection is put back for the next tests.
    expect(await w.db.personConnection.count({ where: { id: adam?.id } })).toBe(0);
    if (adam) await w.db.personConnection.create({ data: adam });
  }, 30_000);

  it("refreshes an expired token once, and a second instance uses the same connection", async () => {
    const ref = { tenantId: "acme", userId: w.person.alice.userId, connector: "notes" };
    const before = await w.db.personConnection.findUniqueOrThrow({
      where: { tenantId_userId_connector: ref },
    });
    await w.db.personConnection.update({
      where: { id: before.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    // Two instances on one database, both calling at once: one refresh, both served.
    const other = createSignpostMcp({ db: w.db, publicUrl: consoleUrl });
    const ctx = w.agent.alice;
    const refreshesBefore = upstream.refreshes();
    const [a, b] = await Promise.all([
      w.mcp.gateway.adapterFor(ctx, "notes"),
      other.gateway.adapterFor(ctx, "notes"),
    ]);
    const after = await w.db.personConnection.findUniqueOrThrow({
      where: { tenantId_userId_connector: ref },
    });
    expect(upstream.refreshes() - refreshesBefore).toBe(1);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    const [ra, rb] = await Promise.all([
      (a as { get(p: string): Promise<unknown> }).get("/notes"),
      (b as { get(p: string): Promise<unknown> }).get("/notes"),
    ]);
    expect(JSON.stringify(ra)).toContain("Alice's plan");
    expect(ra).toEqual(rb);
    expect((await navigate("alice", "notes://mine")).text).toContain("Alice's plan");
  }, 30_000);

  it("answers forbidden naming the system when the person's rights there do not allow it", async () => {
    const page = await navigate("alice", "notes://audit");
    expect(page.structured.outcome).toBe("forbidden");
    expect(page.text).toContain("Team Notes");
  });

  it("asks to connect again once the system revokes the person's access", async () => {
    await upstream.revokeAll("alice");
    const page = await navigate("alice", "notes://mine");
    expect(page.structured.outcome).toBe("connection_required");
    expect(await listMyConnections(w.db, w.person.alice)).toEqual([]);
    // Adam is untouched.
    expect((await navigate("adam", "notes://mine")).text).toContain("Adam's budget notes");
  }, 30_000);

  it("refuses a replayed state, a callback for another person, and an unknown state", async () => {
    const aliceSession = await consoleSessionFor(w.db, "alice@acme.test");
    const adamSession = await consoleSessionFor(w.db, "adam@acme.test");
    const start = await fetch(`${consoleUrl}/connect/notes`, {
      headers: { cookie: `sp_session=${aliceSession}` },
      redirect: "manual",
    });
    expect(start.status).toBe(303);
    const auth = new URL(start.headers.get("location") ?? "");
    expect(auth.origin).toBe(upstream.origin);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    const state = auth.searchParams.get("state") ?? "";
    // Adam's browser comes back with Alice's state (a forwarded link, a mix-up): not bound to him or her.
    const swapped = await fetch(`${consoleUrl}/connect-callback?code=x&state=${state}`, {
      headers: { cookie: `sp_session=${adamSession}` },
    });
    expect(swapped.status).toBe(403);
    // The state was used by that attempt: Alice replaying it is refused too.
    const replay = await fetch(`${consoleUrl}/connect-callback?code=x&state=${state}`, {
      headers: { cookie: `sp_session=${aliceSession}` },
    });
    expect(replay.status).toBe(400);
    const unknown = await fetch(`${consoleUrl}/connect-callback?code=x&state=forged`, {
      headers: { cookie: `sp_session=${aliceSession}` },
    });
    expect(unknown.status).toBe(400);
    // Not signed in: to the console's sign-in, and back to the same page after.
    const anonymous = await fetch(`${consoleUrl}/connect/notes`, { redirect: "manual" });
    expect(anonymous.headers.get("location")).toBe("/sign-in?next=%2Fconnect%2Fnotes");
    expect(await listMyConnections(w.db, w.person.alice)).toEqual([]);
  }, 30_000);

  it("disconnects with revocation upstream, and an admin cuts the system off for everyone", async () => {
    const res = await disconnect(w.db, w.person.adam, "notes");
    expect(res).toEqual({ ok: true, value: { revoked: true } });
    expect(upstream.tokensSeen.length).toBeGreaterThan(0);
    // The revoked token no longer works at the system itself.
    const last = upstream.tokensSeen.at(-1) as string;
    expect(await upstream.provider.AccessToken.find(last)).toBeUndefined();
    expect((await navigate("adam", "notes://mine")).structured.outcome).toBe("connection_required");

    const cut = await cutOffConnector(w.db, w.person.adam, "notes");
    expect(cut.ok).toBe(true);
    expect(await w.db.personConnection.count({ where: { tenantId: "acme", connector: "notes" } })).toBe(0);
    expect((await navigate("alice", "notes://mine")).structured.outcome).not.toBe("applied");
  }, 30_000);

  it("an imported OpenAPI document with an authorization code scheme acts as each person the same way", async () => {
    const document = await (await fetch(`${upstream.apiUrl}/openapi.json`)).text();
    const imported = await importOpenApiConnector(
      w.db,
      cliActor("acme", "test"),
      {
        text: document,
        id: "teamnotes",
        baseUrl: upstream.apiUrl,
        readRoles: ["admin", "member"],
        secrets: {},
        self: { origins: [], ports: [] },
      },
      { apply: true },
    );
    if (!imported.ok) throw new Error(JSON.stringify(imported));
    const def = (await tenantConnectors(w.db, "acme")).find((c) => c.id === "teamnotes");
    expect(def?.personAuth).toMatchObject({ tokenUrl: upstream.tokenUrl, scopes: ["notes:read"] });
    expect(def?.secrets.map((x) => x.name)).toEqual(["oauth_client_secret"]);
    const admin = { ...w.person.adam, sessionId: "s_adam", tenantName: "Acme", role: "admin" as const };
    expect(
      (
        await updateConnectorSettings(w.db, admin, "teamnotes", {
          baseUrl: upstream.apiUrl,
          values: { oauth_client_id: UPSTREAM_CLIENT.id },
        })
      ).ok,
    ).toBe(true);
    expect(
      (await replaceConnectorSecret(w.db, admin, "teamnotes", "oauth_client_secret", UPSTREAM_CLIENT.secret))
        .ok,
    ).toBe(true);
    const listing = def?.routes.find(
      (r) => r.pattern !== "teamnotes://" && !r.pattern.includes("{") && !r.pattern.endsWith("/create"),
    )?.pattern as string;
    expect(listing).toBeTruthy();

    const first = await navigate("alice", listing);
    expect(first.structured.outcome).toBe("connection_required");
    const link = `${consoleUrl}/connect/teamnotes`;
    expect(first.text).toContain(link);
    await connectInChromium("alice@acme.test", "alice", link);
    const mine = await navigate("alice", listing);
    expect(mine.structured.outcome).toBe("applied");
    expect(mine.text).toContain("Alice's plan for Q3");

    // A write with a person's approval goes out with her own token: the note is hers at the system.
    const rule = await createPermissionRule(
      w.db,
      { ...admin, email: "adam@acme.test", name: "Adam" },
      {
        subjectType: "role",
        subjectId: "member",
        verb: "start",
        pattern: "teamnotes://notes/create",
        decision: "allow",
      },
    );
    expect(rule.ok, JSON.stringify(rule)).toBe(true);
    const agent = await w.connect(w.keys.alice);
    const call = async (name: string, args: Record<string, unknown>) =>
      (
        (await agent.callTool({ name, arguments: args })) as {
          structuredContent: Record<string, unknown>;
        }
      ).structuredContent;
    const startWrite = async (text: string, decide: typeof approve = approve) => {
      const started = await call("submit", { uri: "teamnotes://notes/create", fields: { text } });
      const id = (started.links as string[] | undefined)
        ?.find((l) => /^actions:\/\/[^/]+$/.test(l))
        ?.slice("actions://".length);
      expect(id, JSON.stringify(started)).toBeTruthy();
      expect((await decide(w, id as string, w.person.alice)).outcome).toBe("applied");
      return id as string;
    };
    // Her approval carries the write out, with her own token; the agent's later confirm replays it.
    const written = await startWrite("Book the offsite");
    expect(upstream.writes).toEqual([expect.objectContaining({ owner: "alice", text: "Book the offsite" })]);
    const confirmed = await call("confirm_action", {
      action_id: written,
      idempotency_key: `k-${Date.now()}`,
    });
    expect(confirmed.outcome, JSON.stringify(confirmed)).toBe("applied");
    expect(upstream.writes).toHaveLength(1);
    expect(await w.db.effect.findUnique({ where: { actionId: written } })).toMatchObject({
      status: "applied",
    });

    // Approved, then the system stops accepting her token before the confirm: the write is
    // refused there (401), answered connection_required, and nothing is left half-done — no
    // effect row claiming it may have happened, the action still approved and confirmable later.
    const refused = await startWrite("Cancel the offsite", grant);
    await upstream.revokeAll("alice");
    const answer = await call("confirm_action", { action_id: refused, idempotency_key: `k-${Date.now()}` });
    expect(answer.outcome, JSON.stringify(answer)).toBe("connection_required");
    expect(answer.connect_url).toBe(link);
    expect(upstream.writes).toHaveLength(1);
    expect(await w.db.effect.findUnique({ where: { actionId: refused } })).toBeNull();
    expect(await w.db.action.findUniqueOrThrow({ where: { id: refused } })).toMatchObject({
      status: "approved",
    });
    await agent.close();

    // The system refuses her token from now on: the next call asks to connect again.
    expect((await navigate("alice", listing)).structured.outcome).toBe("connection_required");

    // A host that can open a URL for the person (URL-mode elicitation over input_required): the
    // confirm sends her to the connect page itself, she connects there, and the same call then
    // goes through, once: the agent never relays the link nor retries by hand.
    const opened: string[] = [];
    const host = await w.connect(w.keys.alice, {
      elicitationModes: { url: true },
      elicit: async (params) => {
        opened.push(String(params.url));
        await connectInChromium("alice@acme.test", "alice", String(params.url));
        return { action: "accept" };
      },
    });
    const resumed = (await host.callTool({
      name: "confirm_action",
      arguments: { action_id: refused, idempotency_key: `k-${Date.now()}` },
    })) as { structuredContent: Record<string, unknown> };
    expect(opened).toEqual([link]);
    expect(resumed.structuredContent.outcome, JSON.stringify(resumed.structuredContent)).toBe("applied");
    expect(upstream.writes).toEqual([
      expect.objectContaining({ owner: "alice", text: "Book the offsite" }),
      expect.objectContaining({ owner: "alice", text: "Cancel the offsite" }),
    ]);
    await host.close();
  }, 150_000);

  it("moving the OAuth token endpoint to another origin clears the client secret; other settings keep it", async () => {
    const admin = { ...w.person.adam, sessionId: "s_adam", tenantName: "Acme", role: "admin" as const };
    const ref = { tenantId: "acme", connector: "teamnotes", name: "oauth_client_secret" };
    const secretSet = async () => (await w.db.secret.count({ where: ref })) === 1;
    expect(await secretSet()).toBe(true);
    const kept = await updateConnectorSettings(w.db, admin, "teamnotes", {
      baseUrl: upstream.apiUrl,
      values: { oauth_scopes: "notes:read" },
    });
    expect(kept).toMatchObject({ ok: true, value: { secretsCleared: [] } });
    expect(await secretSet()).toBe(true);
    const moved = await updateConnectorSettings(w.db, admin, "teamnotes", {
      baseUrl: upstream.apiUrl,
      values: { oauth_token_url: "https://elsewhere.example/token" },
    });
    expect(moved).toMatchObject({ ok: true, value: { secretsCleared: ["oauth_client_secret"] } });
    expect(await secretSet()).toBe(false);
  });
});
