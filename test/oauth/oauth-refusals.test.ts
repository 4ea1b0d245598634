import { afterAll, beforeAll, expect, it } from "vitest";
import { revokeAgent } from "@/server/gateway/console/manage-agents";
import { pruneRecords } from "@/server/jobs/prune-records";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import {
  authorizationUrlFor,
  authorizeOverHttp,
  consoleSessionFor,
  exchangeCode,
  listToolsWith,
  pkcePair,
  startHostSide,
  startSignpostInstance,
} from "./oauth-world";

// What the authorization server and /mcp refuse, on two instances sharing one database and one
// public URL (as behind a load balancer): a code from one is redeemed on the other and its
// token works on both; a third deployment (another public URL) refuses it as another audience.
describeEachProvider("OAuth on /mcp: two instances, and the refusals (%s)", (provider) => {
  let world: World;
  let a: Awaited<ReturnType<typeof startSignpostInstance>>;
  let b: Awaited<ReturnType<typeof startSignpostInstance>>;
  let other: Awaited<ReturnType<typeof startSignpostInstance>>;
  let short: Awaited<ReturnType<typeof startSignpostInstance>>;
  let host: Awaited<ReturnType<typeof startHostSide>>;
  let session: string;

  beforeAll(async () => {
    world = await createWorld(provider);
    host = await startHostSide((clientId, redirectUri) => ({
      client_id: clientId,
      client_name: "Refusal Host",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      application_type: "native",
    }));
    process.env.SIGNPOST_EGRESS_CA_FILE = host.caFile;
    a = await startSignpostInstance(world.db);
    b = await startSignpostInstance(world.db, { publicUrl: a.url });
    other = await startSignpostInstance(world.db);
    short = await startSignpostInstance(world.db, { accessTokenTtlS: 3 });
    session = await consoleSessionFor(world.db, "alice@acme.test");
  }, 60_000);
  afterAll(async () => {
    for (const s of [a, b, other, short]) await s?.close();
    await host?.close();
    await world?.close();
  });

  /** Authorization on `authorizeAt`, code redeemed at `redeemAt`: the token response. */
  async function tokenFor(
    authorizeAt: string,
    redeemAt = authorizeAt,
    scope?: string,
    audience = authorizeAt,
  ) {
    const pkce = pkcePair();
    const url = authorizationUrlFor(authorizeAt, {
      clientId: host.clientId,
      redirectUri: host.redirectUri,
      challenge: pkce.challenge,
      scope,
      resource: `${audience}/mcp`,
    });
    const { callback } = await authorizeOverHttp(url, session);
    const code = callback?.get("code");
    if (!code) throw new Error(`no code: ${callback}`);
    return exchangeCode(redeemAt, {
      code,
      verifier: pkce.verifier,
      clientId: host.clientId,
      redirectUri: host.redirectUri,
    });
  }

  it("a code from instance A is redeemed on B; the token works on both; another deployment refuses it (audience)", async () => {
    const token = await tokenFor(a.url, b.url);
    expect(token.status).toBe(200);
    expect(token.body.refresh_token).toBeTruthy();
    for (const instance of [a, b]) {
      const listed = await listToolsWith(`${instance.url}/mcp`, token.body.access_token ?? "");
      expect(listed.status, listed.text).toBe(200);
      expect(listed.text).toContain("start_action");
    }
    const elsewhere = await listToolsWith(`${other.url}/mcp`, token.body.access_token ?? "");
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.challenge).toContain('error="invalid_token"');
    expect(elsewhere.challenge).toContain(
      `resource_metadata="${other.url}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("refuses a token for another resource at the authorization step (RFC 8707 invalid_target)", async () => {
    const pkce = pkcePair();
    const url = authorizationUrlFor(a.url, {
      clientId: host.clientId,
      redirectUri: host.redirectUri,
      challenge: pkce.challenge,
      resource: "https://elsewhere.example/mcp",
    });
    const { callback } = await authorizeOverHttp(url, session);
    expect(callback?.get("error")).toBe("invalid_target");
  });

  it("refuses a reused code (and the token it gave stops: the grant is revoked) and a wrong verifier", async () => {
    const pkce = pkcePair();
    const url = authorizationUrlFor(a.url, {
      clientId: host.clientId,
      redirectUri: host.redirectUri,
      challenge: pkce.challenge,
    });
    const code = (await authorizeOverHttp(url, session)).callback?.get("code") ?? "";
    const wrong = await exchangeCode(a.url, {
      code,
      verifier: pkcePair().verifier,
      clientId: host.clientId,
      redirectUri: host.redirectUri,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");

    const pkce2 = pkcePair();
    const url2 = authorizationUrlFor(a.url, {
      clientId: host.clientId,
      redirectUri: host.redirectUri,
      challenge: pkce2.challenge,
    });
    const code2 = (await authorizeOverHttp(url2, session)).callback?.get("code") ?? "";
    const first = await exchangeCode(a.url, {
      code: code2,
      verifier: pkce2.verifier,
      clientId: host.clientId,
      redirectUri: host.redirectUri,
    });
    expect(first.status).toBe(200);
    // The second try goes to the other instance: the code is consumed in the shared database.
    const again = await exchangeCode(b.url, {
      code: code2,
      verifier: pkce2.verifier,
      clientId: host.clientId,
      redirectUri: host.redirectUri,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
  });

  it("refuses a redirect URI that is not in the client's metadata document, without redirecting to it", async () => {
    const pkce = pkcePair();
    const url = authorizationUrlFor(a.url, {
      clientId: host.clientId,
      redirectUri: "http://127.0.0.1:9/elsewhere",
      challenge: pkce.challenge,
    });
    const { callback, stoppedAt } = await authorizeOverHttp(url, session);
    expect(callback).toBeUndefined();
    expect(stoppedAt?.status).toBe(400);
    expect(stoppedAt?.text).toContain("redirect_uri");
  });

  it("a denial reaches the host as access_denied and connects nothing", async () => {
    const before = await world.db.agent.count({ where: { oauthClientId: host.clientId } });
    const pkce = pkcePair();
    const url = authorizationUrlFor(a.url, {
      clientId: host.clientId,
      redirectUri: host.redirectUri,
      challenge: pkce.challenge,
    });
    const { callback } = await authorizeOverHttp(url, session, "deny");
    expect(callback?.get("error")).toBe("access_denied");
    expect(await world.db.agent.count({ where: { oauthClientId: host.clientId } })).toBe(before);
  });

  it("a face the token has no scope for is 403 insufficient_scope naming the scope", async () => {
    const token = await tokenFor(a.url, a.url, "signpost:actions");
    const res = await listToolsWith(`${a.url}/mcp?faces=script`, token.body.access_token ?? "");
    expect(res.status).toBe(403);
    expect(res.challenge).toContain('error="insufficient_scope"');
    expect(res.challenge).toContain("signpost:script");
    const allowed = await listToolsWith(`${a.url}/mcp?faces=actions`, token.body.access_token ?? "");
    expect(allowed.status).toBe(200);
  });

  it("an expired token is refused", async () => {
    const token = await tokenFor(short.url);
    expect(token.status).toBe(200);
    expect((await listToolsWith(`${short.url}/mcp`, token.body.access_token ?? "")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3_200));
    const late = await listToolsWith(`${short.url}/mcp`, token.body.access_token ?? "");
    expect(late.status).toBe(401);
    expect(late.challenge).toContain('error="invalid_token"');
  });

  it("revoking the connected app on the Agents page stops its tokens at once on both instances, and its refresh token", async () => {
    const token = await tokenFor(a.url, b.url);
    expect((await listToolsWith(`${b.url}/mcp`, token.body.access_token ?? "")).status).toBe(200);
    const app = await world.db.agent.findFirstOrThrow({
      where: { oauthClientId: host.clientId, revokedAt: null },
    });
    const adam = world.person.adam;
    const revoked = await revokeAgent(
      world.db,
      { ...adam, sessionId: "test", tenantName: "Acme", role: "admin" } as never,
      app.id,
    );
    expect(revoked.ok).toBe(true);
    for (const instance of [a, b])
      expect((await listToolsWith(`${instance.url}/mcp`, token.body.access_token ?? "")).status).toBe(401);
    const refreshed = await fetch(`${a.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: token.body.refresh_token ?? "",
        client_id: host.clientId,
      }),
    });
    expect(refreshed.status).toBe(400);
    expect(((await refreshed.json()) as { error: string }).error).toBe("invalid_grant");

    // Allowing again connects anew: a new agent row, and the old token stays refused.
    const fresh = await tokenFor(a.url);
    expect((await listToolsWith(`${a.url}/mcp`, fresh.body.access_token ?? "")).status).toBe(200);
    expect((await listToolsWith(`${a.url}/mcp`, token.body.access_token ?? "")).status).toBe(401);
  });

  it("the prune job drops expired codes, sessions and tokens and keeps live ones (nothing unbounded stored)", async () => {
    const live = await world.db.oAuthRecord.count({ where: { expiresAt: { gt: new Date() } } });
    expect(live).toBeGreaterThan(0);
    await world.db.oAuthRecord.create({
      data: {
        key: "AuthorizationCode:stale",
        model: "AuthorizationCode",
        payload: "{}",
        expiresAt: new Date(Date.now() - 1000),
      },
    });
    const report = await pruneRecords(world.db, { auditRetentionDays: 0 });
    expect(report.oauthRecords).toBeGreaterThanOrEqual(1);
    expect(await world.db.oAuthRecord.findUnique({ where: { key: "AuthorizationCode:stale" } })).toBeNull();
    expect(await world.db.oAuthRecord.count({ where: { expiresAt: { gt: new Date() } } })).toBe(live);
  });

  it("a refresh token rotates: the new one works, the old one is refused", async () => {
    const token = await tokenFor(a.url);
    const refresh = (value: string) =>
      fetch(`${b.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: value,
          client_id: host.clientId,
        }),
      });
    const first = await refresh(token.body.refresh_token ?? "");
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as { refresh_token: string; access_token: string };
    expect(rotated.refresh_token).not.toBe(token.body.refresh_token);
    expect((await listToolsWith(`${a.url}/mcp`, rotated.access_token)).status).toBe(200);
    expect((await refresh(token.body.refresh_token ?? "")).status).toBe(400);
  });
});

describeEachProvider(
  "Client ID Metadata Documents: what the consent page says, what is refused (%s)",
  (provider) => {
    let world: World;
    let signpost: Awaited<ReturnType<typeof startSignpostInstance>>;
    let session: string;
    const hosts: Awaited<ReturnType<typeof startHostSide>>[] = [];

    beforeAll(async () => {
      world = await createWorld(provider);
      session = await consoleSessionFor(world.db, "alice@acme.test");
    }, 60_000);
    afterAll(async () => {
      await signpost?.close();
      for (const h of hosts) await h.close();
      await world?.close();
    });

    async function hostWith(document: (clientId: string, redirectUri: string) => Record<string, unknown>) {
      const host = await startHostSide(document);
      hosts.push(host);
      process.env.SIGNPOST_EGRESS_CA_FILE = host.caFile;
      signpost ??= await startSignpostInstance(world.db);
      return host;
    }

    it("flags an app whose home page is on another domain as unverified, and fetches its document once (cached)", async () => {
      const host = await hostWith((clientId, redirectUri) => ({
        client_id: clientId,
        client_name: "Totally Official Bank",
        client_uri: "https://bank.example/",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
        application_type: "native",
      }));
      const pkce = pkcePair();
      const url = authorizationUrlFor(signpost.url, {
        clientId: host.clientId,
        redirectUri: host.redirectUri,
        challenge: pkce.challenge,
      });
      const page = await fetch(url, { redirect: "manual" });
      const consent = new URL(page.headers.get("location") ?? "", signpost.url);
      const cookies = page.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const html = await (
        await fetch(consent, { headers: { cookie: `${cookies}; sp_session=${session}` } })
      ).text();
      expect(html).toContain("Totally Official Bank");
      expect(html).toContain('data-testid="unverified"');
      await authorizeOverHttp(url, session);
      expect(host.fetches()).toBe(1);
    });

    it("refuses a document whose redirect URI is plain http off this machine", async () => {
      const host = await hostWith((clientId) => ({
        client_id: clientId,
        client_name: "Sloppy Host",
        redirect_uris: ["http://sloppy.example/callback"],
        token_endpoint_auth_method: "none",
      }));
      const pkce = pkcePair();
      const url = authorizationUrlFor(signpost.url, {
        clientId: host.clientId,
        redirectUri: "http://sloppy.example/callback",
        challenge: pkce.challenge,
      });
      const { callback, stoppedAt } = await authorizeOverHttp(url, session);
      expect(callback).toBeUndefined();
      expect(stoppedAt?.status).toBe(400);
    });
  },
);
