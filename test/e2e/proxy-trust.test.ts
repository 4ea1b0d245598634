import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_IP_LIMIT } from "@/server/gateway/console-session";
import { type SignpostApp, startSignpostApp } from "./helpers/signpost-app";

/**
 * Issue 8, "Smaller": X-Forwarded-Host and X-Forwarded-For were believed from any client, so a
 * client could name its own origin as ours (the console's CSRF check) and rotate its address past
 * the per-address sign-in limit. SIGNPOST_TRUST_PROXY (off by default) now decides; untrusted, the
 * Host header and the socket's address are used. Also: no site may frame a console page.
 * Through the real app (`npm start` as scripts/start.ts runs it), so Next.js's own handling of
 * these headers (it passes a client's X-Forwarded-For on unchanged) is part of what is tested.
 */
describe("proxy headers only when SIGNPOST_TRUST_PROXY says so", () => {
  let direct: SignpostApp;
  let proxied: SignpostApp;

  beforeAll(async () => {
    direct = await startSignpostApp({ env: { SIGNPOST_TRUST_PROXY: "" } });
    proxied = await startSignpostApp({ env: { SIGNPOST_TRUST_PROXY: "1" } });
  }, 600_000);
  afterAll(async () => {
    await direct?.stop();
    await proxied?.stop();
  }, 60_000);

  const signIn = (app: SignpostApp, email: string, password: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url, ...headers },
      body: JSON.stringify({ email, password }),
    });

  const sessionCookie = (res: Response) => /sp_session=[^;]+/.exec(res.headers.get("set-cookie") ?? "")?.[0];

  it("console pages and API answers may not be framed by any site and are not content-sniffed", async () => {
    for (const path of ["/sign-in", "/", "/monitor", "/api/health"]) {
      const res = await fetch(`${direct.url}${path}`, { redirect: "manual" });
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    const page = await fetch(`${direct.url}/sign-in`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    // The MCP endpoint's JSON answers too (its app resource carries its own CSP in _meta).
    const mcp = await fetch(`${direct.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("untrusted: a client's X-Forwarded-Host: evil.test with a matching Origin cannot pass the same-origin check", async () => {
    const evil = { origin: "http://evil.test", "x-forwarded-host": "evil.test" };
    const forged = await signIn(direct, "adam@acme.test", direct.password, evil);
    expect(forged.status).toBe(403);
    expect((await forged.json()).error.code).toBe("forbidden");
    expect(sessionCookie(forged)).toBeUndefined();

    const real = await signIn(direct, "adam@acme.test", direct.password);
    expect(real.status).toBe(200);
    const cookie = sessionCookie(real) as string;
    const agents = async () => {
      const res = await fetch(`${direct.url}/api/console/agents`, { headers: { cookie } });
      return (await res.json()) as { agents: unknown[]; users: { id: string; email: string }[] };
    };
    const before = await agents();
    const adam = before.users.find((u) => u.email === "adam@acme.test");
    // A cookie-authenticated mutation with a body that would succeed from our own origin.
    const minted = await fetch(`${direct.url}/api/console/agents`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", ...evil },
      body: JSON.stringify({ name: "csrf-bot", userId: adam?.id }),
    });
    expect(minted.status).toBe(403);
    expect((await agents()).agents).toHaveLength(before.agents.length);
    const signOut = await fetch(`${direct.url}/api/auth/sign-out`, {
      method: "POST",
      headers: { cookie, ...evil },
    });
    expect(signOut.status).toBe(403);
    expect((await fetch(`${direct.url}/api/console/summary`, { headers: { cookie } })).status).toBe(200);
    // Nor does a client's X-Forwarded-Proto make the server believe it came over https.
    const claimedHttps = await signIn(direct, "adam@acme.test", direct.password, {
      "x-forwarded-proto": "https",
    });
    expect(claimedHttps.status).toBe(200);
    expect(claimedHttps.headers.get("set-cookie")?.toLowerCase()).not.toContain("secure");
  });

  it(`untrusted: a client rotating X-Forwarded-For cannot escape the per-address limit (${SIGN_IN_IP_LIMIT} failures)`, async () => {
    // Different emails each time, so the per-email limit never trips: only the address counts.
    for (let i = 0; i < SIGN_IN_IP_LIMIT; i++) {
      const res = await signIn(direct, `spray${i}@acme.test`, "wrong password", {
        "x-forwarded-for": `10.66.${Math.floor(i / 250)}.${i % 250}`,
        "x-real-ip": `10.77.0.${i}`,
      });
      expect(res.status).toBe(401);
    }
    const next = await signIn(direct, "sam@acme.test", direct.password, { "x-forwarded-for": "10.99.99.99" });
    expect(next.status).toBe(429);
    expect((await next.json()).error.code).toBe("too_many_attempts");
  });

  it("trusted (SIGNPOST_TRUST_PROXY=1): the proxy's X-Forwarded-Host, -Proto and -For are honoured", async () => {
    const viaProxy = { origin: "https://signpost.example", "x-forwarded-host": "signpost.example" };
    const ok = await signIn(proxied, "adam@acme.test", proxied.password, {
      ...viaProxy,
      "x-forwarded-proto": "https",
      "x-forwarded-for": "203.0.113.9",
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")?.toLowerCase()).toContain("secure");
    // The proxy's host is ours now; another origin still is not.
    const cross = await signIn(proxied, "adam@acme.test", proxied.password, {
      origin: "http://evil.test",
      "x-forwarded-host": "signpost.example",
    });
    expect(cross.status).toBe(403);

    // The address is the one the proxy appended (the last entry), whatever the client put before it.
    for (let i = 0; i < SIGN_IN_IP_LIMIT; i++) {
      const res = await signIn(proxied, `spray${i}@acme.test`, "wrong password", {
        ...viaProxy,
        "x-forwarded-for": `10.1.1.${i}, 198.51.100.7`,
      });
      expect(res.status).toBe(401);
    }
    const same = await signIn(proxied, "sam@acme.test", proxied.password, {
      ...viaProxy,
      "x-forwarded-for": "198.51.100.7",
    });
    expect(same.status).toBe(429);
    // Another client behind the same proxy is a different address: not locked out.
    const other = await signIn(proxied, "sam@acme.test", proxied.password, {
      ...viaProxy,
      "x-forwarded-for": "198.51.100.8",
    });
    expect(other.status).toBe(200);
  });
});
