import type { OpenAPIV3 } from "openapi-types";
import { type SchemeAuth, securityPlan } from "./security-schemes";

/**
 * Where a secret may go and how: every origin it could be sent to (the base URL's, each `servers`
 * entry's — document, path and operation level — and, for OAuth2 client credentials, the token
 * URL's) and the way it is applied (header or query and its name, bearer, basic, token URL). A
 * secret is bound to exactly this: when a re-import changes any part of it, the secret is
 * cleared, so a key entered for one host is never sent to another.
 */
export interface SecretBinding {
  secret: string;
  scheme: string;
  how: string;
  origins: string[];
}

/** One secret whose binding a re-import changes (it is cleared), or whose scheme it removes. */
export interface SecretBindingChange {
  secret: string;
  /** What changed, in words for the preview: "token URL https://a/token → https://b/token". */
  change: string;
}

function origin(text: string, base: string): string | null {
  try {
    const url = new URL(text, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
  } catch {
    return null;
  }
}

/** A `servers` entry's URL with each `{variable}` at its default (the URL a client would call). */
function serverUrl(server: OpenAPIV3.ServerObject): string {
  return server.url.replace(/\{([^}]{1,60})\}/g, (_m, name: string) =>
    String(server.variables?.[name]?.default ?? name),
  );
}

function serverOrigins(document: OpenAPIV3.Document, baseUrl: string): string[] {
  const lists: Array<OpenAPIV3.ServerObject[] | undefined> = [document.servers];
  for (const item of Object.values(document.paths ?? {})) {
    if (!item || typeof item !== "object") continue;
    lists.push(item.servers);
    for (const method of ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const)
      lists.push(item[method]?.servers);
  }
  const out: string[] = [];
  for (const list of lists)
    for (const server of Array.isArray(list) ? list.slice(0, 50) : [])
      if (server && typeof server.url === "string") {
        const o = origin(serverUrl(server), baseUrl);
        if (o) out.push(o);
      }
  return out;
}

function howOf(auth: SchemeAuth): string {
  if (auth.kind === "api_key") return `API key in ${auth.in} ${auth.param}`;
  if (auth.kind === "client_credentials") return `OAuth2 client credentials, token URL ${auth.tokenUrl}`;
  if (auth.kind === "per_person") return `OAuth2 client of people's connections, token URL ${auth.tokenUrl}`;
  return auth.kind === "basic" ? "HTTP basic" : "bearer token";
}

/** Each usable secret of a document at a base URL, with everything it is bound to. */
export function secretBindings(
  document: Record<string, unknown>,
  baseUrl: string,
): Map<string, SecretBinding> {
  const api = document as unknown as OpenAPIV3.Document;
  const shared = [origin(baseUrl, baseUrl), ...serverOrigins(api, baseUrl)].filter((o): o is string => !!o);
  const out = new Map<string, SecretBinding>();
  for (const auth of securityPlan(api, baseUrl).supported.values()) {
    const own =
      auth.kind === "client_credentials" || auth.kind === "per_person"
        ? [origin(auth.tokenUrl, baseUrl)]
        : [];
    // The client secret of people's connections goes to the token endpoint only, never to the API.
    const origins = [
      ...new Set([...(auth.kind === "per_person" ? [] : shared), ...own.filter((o): o is string => !!o)]),
    ].sort();
    out.set(auth.name, { secret: auth.name, scheme: auth.scheme, how: howOf(auth), origins });
  }
  return out;
}

/**
 * What a re-import changes in where the secrets go: a secret whose origins or way of sending
 * differ, and a secret whose scheme is gone. Each one named here is cleared by the import.
 */
export function diffSecretBindings(
  before: Map<string, SecretBinding>,
  after: Map<string, SecretBinding>,
): SecretBindingChange[] {
  const changes: SecretBindingChange[] = [];
  for (const [secret, old] of before) {
    const next = after.get(secret);
    if (!next) {
      changes.push({ secret, change: "its security scheme is no longer in the document" });
      continue;
    }
    const parts: string[] = [];
    if (old.how !== next.how) parts.push(`${old.how} → ${next.how}`);
    const added = next.origins.filter((o) => !old.origins.includes(o));
    const removed = old.origins.filter((o) => !next.origins.includes(o));
    if (added.length || removed.length)
      parts.push(
        `sent to ${[...added.map((o) => `+${o}`), ...removed.map((o) => `-${o}`)].join(", ")}`.slice(0, 400),
      );
    if (parts.length) changes.push({ secret, change: parts.join("; ") });
  }
  return changes.sort((a, b) => a.secret.localeCompare(b.secret));
}
