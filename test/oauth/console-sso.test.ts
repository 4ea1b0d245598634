import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConsoleContext,
  resolveConsoleSession,
  SESSION_COOKIE,
  signIn,
  signOut,
} from "@/server/gateway/console-session";
import { hashPassword } from "@/server/gateway/passwords";
import { masterKey } from "@/server/gateway/vault";
import type { SsoConfig } from "@/server/oauth/console-sso";
import { createAuthorizationServers } from "@/server/oauth/create-authorization-server";
import { readSignInSettings, saveSignInSettings } from "@/server/oauth/sign-in-settings";
import { createWorld, type World } from "../gateway/gateway-world";
import { allowEgressTo } from "../helpers/allow-egress";

// The console's sign-in through a company's OpenID provider: a real provider (oidc-provider,
// started here as the company's IdP, its login step answered by this test as "who is at the
// keyboard") and Signpost's openid-client side over real HTTP.
interface IdpPerson {
  email: string;
  name: string;
  role?: string;
}

async function startIdp(signpostCallback: string) {
  let atKeyboard: IdpPerson = { email: "", name: "" };
  const people = new Map<string, IdpPerson>();
  let dispatch: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => r.end();
  const server = createServer((req, res) => dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The company's provider runs on this machine in the test: allowed as an operator would.
  allowEgressTo(issuer);
  const idp = new Provider(issuer, {
    clients: [
      {
        client_id: "signpost",
        client_secret: "idp-secret-for-tests",
        redirect_uris: [signpostCallback],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "signpost_role"] },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const person = people.get(sub);
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: person.email,
          email_verified: true,
          name: person.name,
          ...(person.role ? { signpost_role: person.role } : {}),
        }),
      };
    },
  });
  const callback = idp.callback();
  dispatch = (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return void callback(req, res);
    // The company's own login page: whoever is at the keyboard signs in and consents.
    void (async () => {
      const details = await idp.interactionDetails(req, res);
      const sub = `idp-${atKeyboard.email}`;
      people.set(sub, atKeyboard);
      const grant = new idp.Grant({ accountId: sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope("openid email profile");
      await idp.interactionFinished(req, res, {
        login: { accountId: sub },
        consent: { grantId: await grant.save() },
      });
    })();
  };
  return {
    issuer,
    signInAs(person: IdpPerson) {
      atKeyboard = person;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's walk from Signpost's "Sign in with your company" link to the end, cookie jar and all. */
async function ssoSignIn(signpostUrl: string, next = "/approvals") {
  const jar = new Map<string, string>();
  let url = `${signpostUrl}/oauth/sso/start?next=${encodeURIComponent(next)}`;
  for (let hop = 0; hop < 12; hop++) {
    const origin = new URL(url).origin;
    const cookies = [...jar]
      .filter(([k]) => k.startsWith(`${origin}|`))
      .map(([k, v]) => `${k.split("|")[1]}=${v}`);
    const res = await fetch(url, { redirect: "manual", headers: { cookie: cookies.join("; ") } });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ""] = set.split(";");
      const [name = "", ...value] = pair.split("=");
      jar.set(`${origin}|${name.trim()}`, value.join("="));
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      const target = new URL(location, url);
      if (target.origin === signpostUrl && !target.pathname.startsWith("/oauth/"))
        return {
          status: res.status,
          location: target.pathname + target.search,
          session: jar.get(`${signpostUrl}|${SESSION_COOKIE}`),
        };
      url = target.href;
      continue;
    }
    return {
      status: res.status,
      text: await res.text(),
      session: jar.get(`${signpostUrl}|${SESSION_COOKIE}`),
    };
  }
  throw new Error("too many redirects");
}

describe("console sign-in with the company's OpenID provider", () => {
  let world: World;
  let idp: Awaited<ReturnType<typeof startIdp>>;
  let close: () => Promise<void>;
  let signpostUrl: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> = async () => false;
  let sso: SsoConfig;
  /** Signpost serving with this SSO configuration from now on. */
  const serveWith = (config: SsoConfig) => {
    handle = createAuthorizationServers({
      db: world.db,
      publicUrl: signpostUrl,
      masterKey: masterKey(),
      callsPerMinute: 600,
      sso: config,
    });
  };
  const adminOf = async (email: string): Promise<ConsoleContext> => {
    const user = await world.db.user.findUniqueOrThrow({ where: { email }, include: { tenant: true } });
    return {
      sessionId: "test",
      tenantId: user.tenantId,
      tenantName: user.tenant.name,
      userId: user.id,
      email: user.email,
      name: user.name,
      role: "admin",
    };
  };

  beforeAll(async () => {
    world = await createWorld("sqlite");
    const server = createServer((req, res) => {
      void handle(req, res).then((answered) => {
        if (!answered) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    signpostUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    idp = await startIdp(`${signpostUrl}/oauth/sso/callback`);
    sso = {
      SIGNPOST_SSO_ISSUER: idp.issuer,
      SIGNPOST_SSO_CLIENT_ID: "signpost",
      SIGNPOST_SSO_CLIENT_SECRET: "idp-secret-for-tests",
      SIGNPOST_SSO_TENANT: "acme",
      SIGNPOST_SSO_EMAIL_DOMAIN: "acme.test",
      SIGNPOST_SSO_ROLE_CLAIM: "signpost_role",
    };
    serveWith(sso);
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  }, 60_000);
  afterAll(async () => {
    await close?.();
    await idp?.close();
    await world?.close();
  });

  it("a first sign-in creates the account in the tenant with the role the claim maps, and opens a console session", async () => {
    idp.signInAs({ email: "Nora@acme.test", name: "Nora", role: "support" });
    const result = await ssoSignIn(signpostUrl);
    expect(result.status).toBe(303);
    expect(result.location).toBe("/approvals");
    const user = await world.db.user.findUniqueOrThrow({ where: { email: "nora@acme.test" } });
    expect(user).toMatchObject({ tenantId: "acme", role: "support", name: "Nora" });
    const session = await resolveConsoleSession(world.db, result.session);
    expect(session).toMatchObject({ email: "nora@acme.test", tenantId: "acme", role: "support" });

    // Sign-out ends that session; signing in again finds the same account (no second one).
    await signOut(world.db, result.session);
    expect(await resolveConsoleSession(world.db, result.session)).toBeNull();
    const again = await ssoSignIn(signpostUrl);
    expect((await resolveConsoleSession(world.db, again.session))?.userId).toBe(user.id);
    expect(await world.db.user.count({ where: { email: "nora@acme.test" } })).toBe(1);
  });

  it("a role claim that is not a Signpost role, or none, maps to member", async () => {
    idp.signInAs({ email: "omar@acme.test", name: "Omar", role: "superuser" });
    const result = await ssoSignIn(signpostUrl);
    expect((await resolveConsoleSession(world.db, result.session))?.role).toBe("member");
  });

  it("refuses a person of another email domain and creates nothing", async () => {
    idp.signInAs({ email: "eve@evil.test", name: "Eve", role: "admin" });
    const other = await ssoSignIn(signpostUrl);
    expect(other.status).toBe(403);
    expect(other.text).toContain("Only accounts of acme.test");
    expect(other.session).toBeUndefined();
    expect(await world.db.user.count({ where: { email: "eve@evil.test" } })).toBe(0);
  });

  it("refuses a callback that was not started here (no flow cookie)", async () => {
    const res = await fetch(`${signpostUrl}/oauth/sso/callback?code=x&state=y`, { redirect: "manual" });
    expect(res.status).toBe(400);
  });

  it("keeps the client secret in the vault when the environment has none: company sign-in waits for an admin to set it (write-only)", async () => {
    const { SIGNPOST_SSO_CLIENT_SECRET: _fromEnv, ...withoutSecret } = sso;
    serveWith(withoutSecret);
    try {
      idp.signInAs({ email: "vera@acme.test", name: "Vera" });
      const before = await ssoSignIn(signpostUrl);
      expect(before.status).toBe(503);
      expect(before.text).toContain("client secret");
      const adam = await adminOf("adam@acme.test");
      expect((await readSignInSettings(world.db, adam, withoutSecret)).sso?.client_secret).toBe("missing");
      // Passwords cannot be turned off while nobody could sign in the other way.
      const early = await saveSignInSettings(world.db, adam, { password_sign_in: false }, withoutSecret);
      expect(early).toMatchObject({ ok: false, code: "conflict" });

      const saved = await saveSignInSettings(
        world.db,
        adam,
        { sso_client_secret: "idp-secret-for-tests" },
        withoutSecret,
      );
      expect(saved).toMatchObject({ ok: true, value: { sso: { client_secret: "vault" } } });
      expect(JSON.stringify(saved)).not.toContain("idp-secret-for-tests");
      const audit = await world.db.auditEvent.findFirstOrThrow({ where: { operation: "secret.replaced" } });
      expect(JSON.stringify(audit)).not.toContain("idp-secret-for-tests");

      const after = await ssoSignIn(signpostUrl);
      expect(after.status).toBe(303);
      expect((await resolveConsoleSession(world.db, after.session))?.email).toBe("vera@acme.test");
      // With the secret in the environment, the vault is not written (the environment would win).
      expect(
        await saveSignInSettings(world.db, adam, { sso_client_secret: "another-secret-123" }, sso),
      ).toMatchObject({ ok: false, code: "conflict" });
    } finally {
      serveWith(sso);
    }
  });

  it("an admin turns password sign-in off for the tenant: a right password is refused, company sign-in still works, other tenants keep passwords", async () => {
    const password = "correct horse battery";
    await world.db.user.update({
      where: { email: "alice@acme.test" },
      data: { passwordHash: await hashPassword(password) },
    });
    await world.db.user.update({
      where: { email: "gina@globex.test" },
      data: { passwordHash: await hashPassword(password) },
    });
    expect((await signIn(world.db, { email: "alice@acme.test", password })).ok).toBe(true);

    const adam = await adminOf("adam@acme.test");
    const off = await saveSignInSettings(world.db, adam, { password_sign_in: false }, sso);
    expect(off).toMatchObject({ ok: true, value: { password_sign_in: false } });
    try {
      expect(await signIn(world.db, { email: "alice@acme.test", password })).toEqual({
        ok: false,
        reason: "sso_only",
      });
      // A wrong password says what it always said: nothing about the tenant's setting.
      expect(await signIn(world.db, { email: "alice@acme.test", password: "wrong one" })).toEqual({
        ok: false,
        reason: "invalid_credentials",
      });
      idp.signInAs({ email: "alice@acme.test", name: "Alice" });
      const viaSso = await ssoSignIn(signpostUrl);
      expect((await resolveConsoleSession(world.db, viaSso.session))?.email).toBe("alice@acme.test");
      expect((await signIn(world.db, { email: "gina@globex.test", password })).ok).toBe(true);
      // Globex has no company sign-in: its admin cannot turn passwords off.
      const globexAdmin = { ...(await adminOf("gina@globex.test")) };
      expect(await saveSignInSettings(world.db, globexAdmin, { password_sign_in: false }, sso)).toMatchObject(
        {
          ok: false,
          code: "conflict",
        },
      );
      expect((await world.db.tenant.findUniqueOrThrow({ where: { id: "globex" } })).passwordSignIn).toBe(
        true,
      );
    } finally {
      await saveSignInSettings(world.db, adam, { password_sign_in: true }, sso);
    }
    expect((await signIn(world.db, { email: "alice@acme.test", password })).ok).toBe(true);
  });
});
