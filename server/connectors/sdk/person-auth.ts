import type { ConnectorSecret, ConnectorSetting } from "./connector-secret";

/**
 * A connector that acts as each person toward its system: the system's API expects a token
 * issued to that person (OAuth 2 authorization code with PKCE), not one shared key. An admin
 * sets the OAuth client once (PERSON_AUTH_SETTINGS and the client secret); each person connects
 * their own account on Signpost's console the first time a call needs it. The endpoints and
 * scopes given here are defaults the admin's settings override.
 */
export interface PersonAuth {
  kind: "oauth_authorization_code";
  authorizationUrl?: string;
  tokenUrl?: string;
  /** RFC 7009 revocation endpoint: tokens are revoked there when a person disconnects. */
  revocationUrl?: string;
  scopes?: string[];
}

/** The person's connection as an adapter sees it: a token to send, and a way to say it was refused. */
export interface PersonConnectionHandle {
  accessToken: string;
  /** The system refused the token (401): the connection is dropped; the next call asks to connect again. */
  refused(): Promise<void>;
}

/** The admin's settings of a per-person connector's OAuth client (shown on the Connectors page). */
export const PERSON_AUTH_SETTINGS: ConnectorSetting[] = [
  { name: "oauth_client_id", description: "OAuth client id Signpost is registered with at the system" },
  { name: "oauth_authorization_url", description: "Authorization endpoint (where a person consents)" },
  { name: "oauth_token_url", description: "Token endpoint" },
  { name: "oauth_revocation_url", description: "Revocation endpoint (optional)" },
  { name: "oauth_scopes", description: "Scopes asked for, separated by spaces" },
];

/** The client secret: write-only in the vault, sent only to the token and revocation endpoints. */
export const PERSON_AUTH_SECRET: ConnectorSecret = {
  name: "oauth_client_secret",
  description: "OAuth client secret (none for a public client using PKCE only)",
  optional: true,
};

const CONNECTION_REQUIRED = Symbol.for("signpost.ConnectionRequiredError");
const UPSTREAM_FORBIDDEN = Symbol.for("signpost.UpstreamForbiddenError");

/** By brand, like SystemUnavailableError: a connector outside the source loads its own copy of this module. */
function branded(brand: symbol) {
  return (value: unknown) =>
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/**
 * The call needs the person's own connection to this system and there is none (never made,
 * disconnected, or refused upstream). The gateway answers `connection_required` with the
 * console's connect page; nothing was sent to the system.
 */
export class ConnectionRequiredError extends Error {
  static [Symbol.hasInstance] = branded(CONNECTION_REQUIRED);
  readonly [CONNECTION_REQUIRED] = true;
  constructor(
    readonly connector: string,
    readonly title: string,
    /** Why, in words a person can act on ("never connected", "the system refused the token"). */
    readonly why: string,
  ) {
    super(`${title}: ${why}`);
    this.name = "ConnectionRequiredError";
  }
}

/** The system answered 403 to the person's own token: their rights there do not allow this. */
export class UpstreamForbiddenError extends Error {
  static [Symbol.hasInstance] = branded(UPSTREAM_FORBIDDEN);
  readonly [UPSTREAM_FORBIDDEN] = true;
  constructor(
    readonly connector: string,
    readonly title: string,
  ) {
    super(`${title} refused this request for your account (HTTP 403)`);
    this.name = "UpstreamForbiddenError";
  }
}

/** Why a per-person auth declaration is unusable, or null. */
export function personAuthProblem(auth: PersonAuth): string | null {
  if (auth?.kind !== "oauth_authorization_code") return 'personAuth.kind must be "oauth_authorization_code"';
  for (const key of ["authorizationUrl", "tokenUrl", "revocationUrl"] as const) {
    const value = auth[key];
    if (value === undefined) continue;
    try {
      const url = new URL(value);
      if (url.protocol !== "https:" && url.protocol !== "http:") return `personAuth.${key} must be http(s)`;
    } catch {
      return `personAuth.${key} is not a URL`;
    }
  }
  if (
    auth.scopes &&
    (!Array.isArray(auth.scopes) || auth.scopes.some((s) => !/^[\x21-\x7e]{1,100}$/.test(s)))
  )
    return "personAuth.scopes must be scope tokens";
  return null;
}
