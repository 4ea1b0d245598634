import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import * as oidc from "openid-client";
import { z } from "zod";
import type { Db } from "../db/client";
import {
  type ConsoleRole,
  consoleRoleSchema,
  hashSessionToken,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from "../gateway/console-session";
import { hashPassword } from "../gateway/passwords";
import { recordAuditEvent } from "../gateway/record-audit-event";
import { readSecret } from "../gateway/vault";
import { outboundFetch } from "./outbound-fetch";

/**
 * The console's sign-in through the company's OpenID provider (authorization code + PKCE with
 * `openid-client`): for one tenant, people of its email domain get an account on first sign-in
 * (just in time) with the role a claim names (default member). Configured by environment:
 * SIGNPOST_SSO_ISSUER, SIGNPOST_SSO_CLIENT_ID, SIGNPOST_SSO_CLIENT_SECRET, SIGNPOST_SSO_TENANT,
 * SIGNPOST_SSO_EMAIL_DOMAIN, SIGNPOST_SSO_ROLE_CLAIM (default `signpost_role`). The client secret
 * may instead live in the vault, set (write-only) by an admin of that tenant in the console.
 */
export const SSO_START_PATH = "/oauth/sso/start";
export const SSO_CALLBACK_PATH = "/oauth/sso/callback";
const FLOW_COOKIE = "sp_sso";
const FLOW_TTL_MS = 10 * 60 * 1000;
const NOT_SET_UP =
  "Company sign-in is not set up yet: an admin sets its client secret in the console (Settings → Sign-in).";

const ssoEnvSchema = z.object({
  SIGNPOST_SSO_ISSUER: z.string().url(),
  SIGNPOST_SSO_CLIENT_ID: z.string().min(1),
  SIGNPOST_SSO_CLIENT_SECRET: z.string().min(1).optional(),
  SIGNPOST_SSO_TENANT: z.string().min(1),
  SIGNPOST_SSO_EMAIL_DOMAIN: z.string().min(1).toLowerCase(),
  SIGNPOST_SSO_ROLE_CLAIM: z.string().min(1).default("signpost_role"),
});
export type SsoConfig = z.infer<typeof ssoEnvSchema>;

/** The SSO settings, or null when SSO is not configured (password sign-in only). */
export function ssoConfigFromEnv(env: NodeJS.ProcessEnv = process.env): SsoConfig | null {
  if (!env.SIGNPOST_SSO_ISSUER) return null;
  return ssoEnvSchema.parse(env);
}

/** Where the client secret is kept when the environment does not set it (per tenant, write-only). */
export function ssoClientSecretRef(tenantId: string) {
  return { tenantId, connector: "signpost-sso", name: "client_secret" };
}

const flowSchema = z
  .object({ verifier: z.string(), state: z.string(), nonce: z.string(), next: z.string(), at: z.number() })
  .strict();

export function createConsoleSso(options: {
  db: Db;
  config: SsoConfig;
  publicUrl: string;
  masterKey: Buffer;
}) {
  const { db, config } = options;
  const signingKey = createHmac("sha256", options.masterKey).update("signpost sso flow cookie").digest();
  const callbackUrl = `${options.publicUrl}${SSO_CALLBACK_PATH}`;
  // Discovered once per client secret: a secret replaced in the vault takes effect at the next sign-in.
  let discovered: { secret: string; found: Promise<oidc.Configuration> } | undefined;

  /** The client secret: the environment's, else the vault's; null while an admin has set none. */
  async function clientSecret(): Promise<string | null> {
    return (
      config.SIGNPOST_SSO_CLIENT_SECRET ??
      (await readSecret(db, ssoClientSecretRef(config.SIGNPOST_SSO_TENANT)))
    );
  }

  function configuration(secret: string) {
    if (discovered?.secret === secret) return discovered.found;
    const found = (async () => {
      const issuer = new URL(config.SIGNPOST_SSO_ISSUER);
      const found = await oidc.discovery(issuer, config.SIGNPOST_SSO_CLIENT_ID, secret, undefined, {
        [oidc.customFetch]: outboundFetch as oidc.CustomFetch,
        // Plain http only for a provider on this machine (a local test or demo IdP).
        ...(issuer.protocol === "http:" && /^(127\.0\.0\.1|localhost|\[::1\])$/.test(issuer.hostname)
          ? { execute: [oidc.allowInsecureRequests] }
          : {}),
      });
      found[oidc.customFetch] = outboundFetch as oidc.CustomFetch;
      return found;
    })().catch((error) => {
      discovered = undefined;
      throw error;
    });
    discovered = { secret, found };
    return found;
  }

  function seal(value: z.infer<typeof flowSchema>) {
    const body = Buffer.from(JSON.stringify(value)).toString("base64url");
    return `${body}.${createHmac("sha256", signingKey).update(body).digest("base64url")}`;
  }
  function unseal(cookie: string | undefined) {
    const [body = "", mac = ""] = (cookie ?? "").split(".");
    const expected = createHmac("sha256", signingKey).update(body).digest();
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const parsed = flowSchema.safeParse(JSON.parse(Buffer.from(body, "base64url").toString("utf8")));
    return parsed.success && Date.now() - parsed.data.at < FLOW_TTL_MS ? parsed.data : null;
  }

  async function start(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", options.publicUrl);
    const next = safePath(url.searchParams.get("next"));
    const secret = await clientSecret();
    if (!secret) return refuse(res, 503, NOT_SET_UP);
    const found = await configuration(secret);
    const verifier = oidc.randomPKCECodeVerifier();
    const flow = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce(), next, at: Date.now() };
    const target = oidc.buildAuthorizationUrl(found, {
      redirect_uri: callbackUrl,
      scope: "openid email profile",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce,
    });
    res.writeHead(303, {
      location: target.href,
      "set-cookie": cookie(FLOW_COOKIE, seal(flow), {
        path: "/oauth/sso",
        maxAgeS: FLOW_TTL_MS / 1000,
        secure: isHttps(options.publicUrl),
      }),
      "cache-control": "no-store",
    });
    res.end();
  }

  async function callback(req: IncomingMessage, res: ServerResponse) {
    const flow = unseal(cookieOf(req, FLOW_COOKIE));
    if (!flow) return refuse(res, 400, "This sign-in has expired or was not started here. Start again.");
    const secret = await clientSecret();
    if (!secret) return refuse(res, 503, NOT_SET_UP);
    const found = await configuration(secret);
    const current = new URL(req.url ?? "/", options.publicUrl);
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(found, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      claims = { ...(tokens.claims() ?? {}) };
      if (typeof claims.email !== "string" && tokens.access_token && typeof claims.sub === "string")
        claims = { ...claims, ...(await oidc.fetchUserInfo(found, tokens.access_token, claims.sub)) };
    } catch {
      return refuse(res, 400, "Your company's sign-in did not complete. Start again.");
    }
    const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
    if (!email || claims.email_verified === false)
      return refuse(res, 403, "Your company's sign-in gave no verified email address.");
    if (email.split("@")[1] !== config.SIGNPOST_SSO_EMAIL_DOMAIN)
      return refuse(res, 403, `Only accounts of ${config.SIGNPOST_SSO_EMAIL_DOMAIN} sign in here.`);
    const person = await accountFor(email, claims);
    if (!person) return refuse(res, 403, "This account belongs to another organisation on this Signpost.");
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await db.session.create({
      data: { tokenHash: hashSessionToken(token), userId: person.id, tenantId: person.tenantId, expiresAt },
    });
    await recordAuditEvent(
      db,
      { tenantId: person.tenantId, userId: person.id, face: "console", requestId: null },
      {
        operation: "session.signed_in",
        target: email,
        arguments: { via: "sso" },
        outcome: "applied",
        latencyMs: 0,
      },
    );
    res.writeHead(303, {
      location: flow.next,
      "set-cookie": [
        cookie(SESSION_COOKIE, token, {
          path: "/",
          maxAgeS: SESSION_TTL_MS / 1000,
          secure: isHttps(options.publicUrl),
        }),
        cookie(FLOW_COOKIE, "", { path: "/oauth/sso", maxAgeS: 0, secure: isHttps(options.publicUrl) }),
      ],
      "cache-control": "no-store",
    });
    res.end();
  }

  /** The person's account: found by email in the SSO tenant, or made now with the mapped role. */
  async function accountFor(email: string, claims: Record<string, unknown>) {
    const existing = await db.user.findUnique({ where: { email } });
    if (existing) return existing.tenantId === config.SIGNPOST_SSO_TENANT ? existing : null;
    const role: ConsoleRole = consoleRoleSchema.catch("member").parse(claims[config.SIGNPOST_SSO_ROLE_CLAIM]);
    const name =
      typeof claims.name === "string" && claims.name.trim() ? claims.name.trim().slice(0, 100) : email;
    const user = await db.user.create({
      data: {
        tenantId: config.SIGNPOST_SSO_TENANT,
        email,
        name,
        role,
        // No password: this person signs in through the company's provider.
        passwordHash: await hashPassword(randomBytes(32).toString("base64url")),
      },
    });
    await recordAuditEvent(
      db,
      { tenantId: user.tenantId, userId: user.id, face: "console", requestId: null },
      {
        operation: "user.created",
        target: email,
        arguments: { via: "sso", role },
        outcome: "applied",
        latencyMs: 0,
      },
    );
    return user;
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === SSO_START_PATH) {
      await start(req, res);
      return true;
    }
    if (req.method === "GET" && path === SSO_CALLBACK_PATH) {
      await callback(req, res);
      return true;
    }
    return false;
  };
}

function safePath(next: string | null): string {
  return next && /^\/(?![/\\])[^\s\\]*$/.test(next) && next.length <= 2048 ? next : "/";
}

function isHttps(publicUrl: string) {
  return publicUrl.startsWith("https:");
}

function cookie(name: string, value: string, options: { path: string; maxAgeS: number; secure: boolean }) {
  return `${name}=${value}; Path=${options.path}; Max-Age=${Math.floor(options.maxAgeS)}; HttpOnly; SameSite=Lax${options.secure ? "; Secure" : ""}`;
}

function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

function refuse(res: ServerResponse, status: number, message: string) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(`${message}\n`);
}
