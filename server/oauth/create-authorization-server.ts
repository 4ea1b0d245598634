import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, { type Configuration, errors } from "oidc-provider";
import type { Db } from "../db/client";
import { logger } from "../logger";
import { AGENT_CLAIM, connectedAppOf } from "./connected-apps";
import { handleConsent } from "./consent-page";
import { createConsoleSso, type SsoConfig } from "./console-sso";
import { ALL_SCOPES } from "./oauth-scopes";
import {
  AUTHORIZATION_SERVER_METADATA_PATH,
  CONSENT_PATH,
  OAUTH_PATH,
  oauthUrls,
  PROTECTED_RESOURCE_PATH,
} from "./oauth-urls";
import { outboundFetch } from "./outbound-fetch";
import { prismaOAuthAdapter } from "./prisma-oauth-adapter";
import { cookieKeys, signingKeys } from "./signing-keys";

export interface AuthorizationServerOptions {
  db: Db;
  /** Where people and hosts reach Signpost (the issuer is `<publicUrl>/oauth`, the resource `<publicUrl>/mcp`). */
  publicUrl: string;
  masterKey: Buffer;
  /** Access-token lifetime in seconds (default 10 minutes: revocation is immediate anyway). */
  accessTokenTtlS?: number;
  /** The call budget a connected app gets, shown on the consent screen. */
  callsPerMinute: number;
  /** The console's sign-in through the company's OpenID provider; null or absent for none. */
  sso?: SsoConfig | null;
}

/** Where the authorization server and the metadata documents live on Signpost's origin. */
/**
 * Signpost as the authorization server of its own MCP endpoint (MCP authorization 2026-07-28),
 * on `oidc-provider`: authorization code with PKCE (S256 only), refresh tokens that rotate,
 * resource indicators (tokens are JWTs whose audience is this `/mcp`), and Client ID Metadata
 * Documents as the way a host says who it is (fetched through `outboundFetch`). The sign-in and
 * consent page is the console's: a person signed in to the console allows or denies there.
 *
 * `handle` answers the requests that are its own (`/oauth/…` and the two metadata documents)
 * and returns false for everything else.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions) {
  const { db } = options;
  const { issuer, resource, resourceMetadataUrl } = oauthUrls(options.publicUrl);
  const accessTokenTTL = options.accessTokenTtlS ?? 600;

  const configuration: Configuration = {
    adapter: prismaOAuthAdapter(db),
    jwks: { keys: signingKeys(options.masterKey).privateJwks as never },
    cookies: { keys: cookieKeys(options.masterKey) },
    // The OpenID scopes only: the MCP faces' scopes belong to the resource (getResourceServerInfo).
    scopes: ["openid"],
    claims: { openid: ["sub"], email: ["email"], profile: ["name"] },
    async findAccount(_ctx, sub) {
      const user = await db.user.findUnique({
        where: { id: sub },
        select: { id: true, email: true, name: true },
      });
      if (!user) return undefined;
      return {
        accountId: user.id,
        claims: async () => ({ sub: user.id, email: user.email, name: user.name }),
      };
    },
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    responseTypes: ["code"],
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}${interaction.uid}` },
    // The connection a token acts through, fixed at issue: a revoke ends it for good.
    async extraTokenClaims(_ctx, token) {
      const accountId = "accountId" in token ? token.accountId : undefined;
      const clientId = token.clientId;
      const agentId = accountId && clientId ? await connectedAppOf(db, accountId, clientId) : null;
      return agentId ? { [AGENT_CLAIM]: agentId } : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTTL,
      AuthorizationCode: 60,
      Interaction: 10 * 60,
      Session: 12 * 60 * 60,
      Grant: 30 * 24 * 60 * 60,
      RefreshToken: 30 * 24 * 60 * 60,
      IdToken: 60 * 60,
    },
    fetch: (url, init) => {
      // Our egress function decides where requests may go; the provider's own dispatcher is dropped.
      const { dispatcher: _ignored, ...rest } = init as RequestInit & { dispatcher?: unknown };
      return outboundFetch(url, rest);
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: false },
      revocation: { enabled: true },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        cacheDuration: { min: 60, max: 3600 },
        // Redirect URIs: https, or http on a loopback address only (a native host's own listener).
        allowClient: async (_ctx: unknown, client: { redirectUris?: string[] }) =>
          (client.redirectUris ?? []).every(redirectUriAllowed),
      } as never,
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, requested) {
          if (requested !== resource)
            throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`);
          return {
            scope: ALL_SCOPES.join(" "),
            audience: resource,
            accessTokenTTL,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "EdDSA" } },
          };
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = "text/plain; charset=utf-8";
      ctx.body = `Signpost could not complete this sign-in: ${out.error}${out.error_description ? ` (${out.error_description})` : ""}.`;
    },
  };

  const provider = new Provider(issuer, configuration);
  const sso = options.sso
    ? createConsoleSso({
        db,
        config: options.sso,
        publicUrl: options.publicUrl.replace(/\/$/, ""),
        masterKey: options.masterKey,
      })
    : null;
  provider.on("server_error", (_ctx, error) => logger.warn({ err: error.message }, "oauth: server error"));
  const callback = provider.callback();

  function protectedResourceMetadata() {
    return {
      resource,
      authorization_servers: [issuer],
      scopes_supported: ALL_SCOPES,
      bearer_methods_supported: ["header"],
      resource_name: "Signpost",
    };
  }

  /** Hands a request to oidc-provider as if it were mounted at OAUTH_PATH (the way Express mounts it). */
  function toProvider(req: IncomingMessage, res: ServerResponse, path: string) {
    // oidc-provider builds its URLs from the mount path it reads off `baseUrl`, as Express sets it.
    (req as IncomingMessage & { baseUrl?: string }).baseUrl = OAUTH_PATH;
    req.url = path;
    return callback(req, res);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? "/", "http://signpost.invalid");
    const path = url.pathname;
    if (path === PROTECTED_RESOURCE_PATH || path === "/.well-known/oauth-protected-resource") {
      res.writeHead(200, {
        "content-type": "application/json",
        "access-control-allow-origin": "*",
        "cache-control": "max-age=300",
      });
      res.end(JSON.stringify(protectedResourceMetadata()));
      return true;
    }
    if (path === AUTHORIZATION_SERVER_METADATA_PATH || path === "/.well-known/openid-configuration/oauth") {
      await toProvider(req, res, "/.well-known/openid-configuration");
      return true;
    }
    if (path.startsWith(CONSENT_PATH)) {
      await handleConsent(req, res, {
        db,
        provider,
        uid: path.slice(CONSENT_PATH.length),
        resource,
        callsPerMinute: options.callsPerMinute,
      });
      return true;
    }
    if (sso && (await sso(req, res))) return true;
    if (path === OAUTH_PATH || path.startsWith(`${OAUTH_PATH}/`)) {
      await toProvider(req, res, `${path.slice(OAUTH_PATH.length) || "/"}${url.search}`);
      return true;
    }
    return false;
  }

  return { handle, provider, issuer, resource, resourceMetadataUrl };
}

export type AuthorizationServer = ReturnType<typeof createAuthorizationServer>;

function redirectUriAllowed(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (
      url.protocol === "https:" ||
      (url.protocol === "http:" && /^(127\.0\.0\.1|\[::1\]|localhost)$/.test(url.hostname))
    );
  } catch {
    return false;
  }
}

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The authorization server for the origin a request came to: SIGNPOST_PUBLIC_URL when set;
 * otherwise (a local start) the loopback origin the host used (`localhost` and `127.0.0.1` are
 * different resources to an MCP client), one server each. Any other Host is not served.
 */
export function createAuthorizationServers(
  options: Omit<AuthorizationServerOptions, "publicUrl"> & { publicUrl?: string },
) {
  const servers = new Map<string, AuthorizationServer>();
  function serverFor(base: string) {
    const known = servers.get(base);
    if (known) return known;
    const server = createAuthorizationServer({ ...options, publicUrl: base });
    servers.set(base, server);
    return server;
  }
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const ours =
      path === OAUTH_PATH ||
      path.startsWith(`${OAUTH_PATH}/`) ||
      path.startsWith("/.well-known/oauth-") ||
      path === "/.well-known/openid-configuration/oauth";
    if (!ours) return false;
    const host = req.headers.host ?? "";
    const base = options.publicUrl ?? (LOOPBACK_HOST.test(host) ? `http://${host}` : undefined);
    if (!base) {
      res.writeHead(421, { "content-type": "text/plain" });
      res.end("Set SIGNPOST_PUBLIC_URL to serve OAuth on this host name.");
      return true;
    }
    return serverFor(base.replace(/\/$/, "")).handle(req, res);
  };
}
