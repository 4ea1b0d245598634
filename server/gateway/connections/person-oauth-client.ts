import * as oidc from "openid-client";
import type { AnyConnector } from "../../connectors/sdk/define-connector";
import { outboundFetch } from "../../oauth/outbound-fetch";

/** The OAuth client of a per-person connector for one tenant: endpoints, scopes and the library's config. */
export interface PersonOAuthClient {
  config: oidc.Configuration;
  scopes: string[];
  /** Every origin the client secret may be sent to (token and revocation endpoints). */
  secretOrigins: string[];
  revocation: boolean;
}

function httpUrl(text: string | undefined): URL | null {
  if (!text) return null;
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/**
 * The client an admin set (settings override the connector's defaults), or why there is none.
 * Requests go through outboundFetch, so the egress policy covers the token and revocation
 * endpoints like every other address Signpost calls.
 */
export function personOAuthClient(
  def: Pick<AnyConnector, "personAuth">,
  settings: Record<string, string>,
  clientSecret: string | null,
): PersonOAuthClient | { problem: string } {
  const auth = def.personAuth;
  if (!auth) return { problem: "this connector does not connect people's own accounts" };
  const clientId = settings.oauth_client_id;
  const authorization = httpUrl(settings.oauth_authorization_url ?? auth.authorizationUrl);
  const token = httpUrl(settings.oauth_token_url ?? auth.tokenUrl);
  const revocation = httpUrl(settings.oauth_revocation_url ?? auth.revocationUrl);
  if (!clientId || !authorization || !token)
    return {
      problem:
        "an admin has not set the OAuth client yet (client id, authorization and token endpoints on the Connectors page)",
    };
  const scopes = (settings.oauth_scopes ?? auth.scopes?.join(" ") ?? "").split(/\s+/).filter(Boolean);
  const server: oidc.ServerMetadata = {
    // The authorization server's identifier: an `iss` in its answer must name it (RFC 9207, mix-up).
    issuer: authorization.origin,
    authorization_endpoint: authorization.href,
    token_endpoint: token.href,
    ...(revocation ? { revocation_endpoint: revocation.href } : {}),
  };
  const config = new oidc.Configuration(
    server,
    clientId,
    undefined,
    clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None(),
  );
  config[oidc.customFetch] = outboundFetch as oidc.CustomFetch;
  // http only where an operator let Signpost reach such an address (the egress policy decides).
  if ([authorization, token, revocation].some((u) => u?.protocol === "http:"))
    oidc.allowInsecureRequests(config);
  return {
    config,
    scopes,
    secretOrigins: [...new Set([token.origin, ...(revocation ? [revocation.origin] : [])])],
    revocation: !!revocation,
  };
}
