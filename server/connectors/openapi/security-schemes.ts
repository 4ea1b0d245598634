import type { OpenAPIV3 } from "openapi-types";
import { PERSON_AUTH_SECRET } from "../sdk/person-auth";

function httpUrl(text: string | undefined, base: string): URL | null {
  try {
    const url = text ? new URL(text, base) : null;
    return url && (url.protocol === "https:" || url.protocol === "http:") ? url : null;
  } catch {
    return null;
  }
}

/** How one security scheme of the document is applied to a request, and what its secret holds. */
export type SchemeAuth =
  | { kind: "api_key"; name: string; scheme: string; in: "header" | "query"; param: string }
  | { kind: "bearer"; name: string; scheme: string }
  | { kind: "basic"; name: string; scheme: string }
  | { kind: "client_credentials"; name: string; scheme: string; tokenUrl: string; scopes: string[] }
  /**
   * OAuth2 authorization code: each person connects their own account; the adapter sends the
   * person's token. `name` is the vault secret of the OAuth client (PERSON_AUTH_SECRET).
   */
  | {
      kind: "per_person";
      name: string;
      scheme: string;
      authorizationUrl: string;
      tokenUrl: string;
      scopes: string[];
    };

export interface SecurityPlan {
  /** Schemes Signpost can apply, by the document's scheme name; `name` is the vault secret's. */
  supported: Map<string, SchemeAuth>;
  /** Schemes it cannot (cookie keys, mutual TLS…), with why; operations needing only these are skipped. */
  unsupported: Map<string, string>;
}

/**
 * The vault name of a scheme's secret: the console and `config://` take lowercase letters,
 * digits and `_` (`bearerAuth` → `bearerauth`, `OAuth2` → `oauth2`). The CLI's `--secret` takes
 * either spelling.
 */
export function secretNameOf(scheme: string): string | null {
  const name = scheme
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .slice(0, 40);
  return name || null;
}

/** What an admin pastes into the secret of each kind of scheme. */
export function secretDescription(auth: SchemeAuth): string {
  switch (auth.kind) {
    case "api_key":
      return `API key, sent in the ${auth.in} ${auth.param}`;
    case "bearer":
      return "Bearer token (or an OAuth2 access token), sent as Authorization: Bearer";
    case "basic":
      return "user:password, sent as HTTP Basic";
    case "client_credentials":
      return "client_id:client_secret; Signpost fetches the access token itself";
    case "per_person":
      return "OAuth client secret; each person connects their own account";
  }
}

/**
 * Maps `components.securitySchemes` to how each is applied: API keys in a header or the query,
 * HTTP bearer and basic, OAuth2 client credentials (the token fetched server-side from the
 * document's token URL) and, for every other OAuth2 flow and OpenID Connect, an access token an
 * admin pastes. A scheme Signpost cannot apply is named as such, never silently dropped.
 */
export function securityPlan(api: OpenAPIV3.Document, baseUrl: string): SecurityPlan {
  const supported = new Map<string, SchemeAuth>();
  const unsupported = new Map<string, string>();
  const schemes = (api.components?.securitySchemes ?? {}) as Record<string, OpenAPIV3.SecuritySchemeObject>;
  const taken = new Set<string>();
  for (const [scheme, s] of Object.entries(schemes)) {
    const name = secretNameOf(scheme);
    if (!name || taken.has(name)) {
      unsupported.set(scheme.slice(0, 64), "its name gives no secret name of its own");
      continue;
    }
    taken.add(name);
    if (s.type === "apiKey") {
      if (s.in === "header" || s.in === "query")
        supported.set(scheme, { kind: "api_key", name, scheme, in: s.in, param: s.name });
      else unsupported.set(scheme, `an API key in a ${s.in} is not supported`);
    } else if (s.type === "http") {
      const httpScheme = s.scheme?.toLowerCase();
      if (httpScheme === "bearer") supported.set(scheme, { kind: "bearer", name, scheme });
      else if (httpScheme === "basic") supported.set(scheme, { kind: "basic", name, scheme });
      else unsupported.set(scheme, `HTTP ${s.scheme} authentication is not supported`);
    } else if (s.type === "oauth2") {
      const cc = s.flows?.clientCredentials;
      const ac = s.flows?.authorizationCode;
      const tokenUrl = httpUrl(cc?.tokenUrl, baseUrl);
      const codeUrls = ac ? [httpUrl(ac.authorizationUrl, baseUrl), httpUrl(ac.tokenUrl, baseUrl)] : [];
      if (ac && codeUrls[0] && codeUrls[1])
        // The API expects each person's own token: they connect their account when a call needs it.
        supported.set(scheme, {
          kind: "per_person",
          name: PERSON_AUTH_SECRET.name,
          scheme,
          authorizationUrl: codeUrls[0].href,
          tokenUrl: codeUrls[1].href,
          scopes: Object.keys(ac.scopes ?? {}).slice(0, 20),
        });
      else if (cc && tokenUrl)
        supported.set(scheme, {
          kind: "client_credentials",
          name,
          scheme,
          tokenUrl: tokenUrl.href,
          scopes: Object.keys(cc.scopes ?? {}).slice(0, 20),
        });
      // Implicit, password: an admin pastes an access token.
      else supported.set(scheme, { kind: "bearer", name, scheme });
    } else if (s.type === "openIdConnect") {
      supported.set(scheme, { kind: "bearer", name, scheme });
    } else {
      unsupported.set(scheme, `${String((s as { type?: unknown }).type)} authentication is not supported`);
    }
  }
  return { supported, unsupported };
}
