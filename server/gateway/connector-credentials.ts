import { connectors } from "../connectors/connector-registry";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import {
  ConnectionRequiredError,
  PERSON_AUTH_SECRET,
  type PersonConnectionHandle,
} from "../connectors/sdk/person-auth";
import { SystemUnavailableError } from "../connectors/sdk/system-errors";
import type { Db } from "../db/client";
import { personAccessToken } from "./connections/person-access-token";
import { dropConnection } from "./connections/person-connections";
import { personOAuthClient } from "./connections/person-oauth-client";
import { connectorLookups } from "./lookup-cache";
import { type TenantRef, tenantConfigSnapshot } from "./tenant-config-snapshot";

export interface ConnectorCredentials {
  baseUrl: string;
  /** Secret name → value, for each secret the connector declares. */
  secrets: Record<string, string>;
  /** The connector's declared settings an admin has set (non-secret), by name. */
  settings?: Record<string, string>;
  /** For a per-person connector: the caller's own connection (see AdapterOptions.person). */
  person?: PersonConnectionHandle;
}

/** Who a call is for: the tenant and, where a person is named (every agent and console call), the person. */
export type CallerRef = TenantRef & { userId?: string };

/** The declared settings of a connector that its config row holds as text. */
export function declaredSettings(
  config: { settings: unknown } | null | undefined,
  def: Pick<AnyConnector, "settings">,
): Record<string, string> {
  const stored = (config?.settings ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const { name } of def.settings ?? []) {
    const value = stored[name];
    if (typeof value === "string" && value !== "") out[name] = value;
  }
  return out;
}

export type CredentialResolver = (
  tenant: CallerRef,
  connector: AnyConnector,
) => Promise<ConnectorCredentials | null>;

/**
 * An admin switched the tenant's connector off. It is a SystemUnavailableError so every path that
 * already turns "the system is unavailable" into a typed `temporarily_unavailable` answer
 * (gateway, engine, browse) does the same here, with a message that says why.
 */
export class ConnectorDisabledError extends SystemUnavailableError {
  readonly connector: string;
  constructor(connector: string) {
    super(
      `The ${connector} connector is disabled by an admin of this tenant; it cannot be used until an admin enables it again.`,
    );
    this.name = "ConnectorDisabledError";
    this.connector = connector;
  }
}

export { defaultLegacyUrl } from "../connectors/default-legacy-url";

/**
 * The base URL a connector config row means: its settings' baseUrl, else the connector's own
 * default (only the demo systems have one), else none — a connector with no address is not
 * called at all, so no secret is ever sent to an address nobody chose for it.
 */
export function baseUrlOf(
  config: { settings: unknown } | null | undefined,
  def?: Pick<AnyConnector, "defaultBaseUrl">,
): string | null {
  const base = (config?.settings as { baseUrl?: unknown } | null | undefined)?.baseUrl;
  return typeof base === "string" && base ? base : (def?.defaultBaseUrl?.() ?? null);
}

/**
 * The default resolver: the connector's secrets from the vault (server-internal), the URL from its
 * settings. A connector an admin disabled throws ConnectorDisabledError before a secret is read,
 * so nothing is sent to its system. Null while a declared secret is not set.
 */
export function vaultCredentials(db: Db): CredentialResolver {
  return async (tenant, def) => {
    // Settings and secrets from the tenant's snapshot: read once per change, not once per adapter.
    const snapshot = await tenantConfigSnapshot(db, tenant);
    const config = snapshot.config(def.id);
    if (config && !config.enabled) throw new ConnectorDisabledError(def.id);
    // No system of its own (it works over other connectors, which bring their own credentials).
    if (def.system === false) return { baseUrl: "", secrets: {} };
    const secrets: Record<string, string> = {};
    for (const { name, optional } of def.secrets) {
      const value = snapshot.secret(def.id, name);
      if (!value) {
        if (optional) continue;
        return null;
      }
      secrets[name] = value;
    }
    const baseUrl = baseUrlOf(config, def);
    if (!baseUrl) return null;
    const settings = declaredSettings(config, def);
    if (!def.personAuth) return { baseUrl, secrets, settings };
    // The system acts as the person: their own token, never another person's. A document may also
    // offer a shared credential as an alternative (basic OR the person's OAuth): when an admin set
    // one, a person who has not connected is served through it, and the API client asks for the
    // connection only for an operation that accepts nothing else.
    const sharedSet = def.secrets.some((s) => s.name !== PERSON_AUTH_SECRET.name && secrets[s.name]);
    let accessToken: string;
    try {
      if (!tenant.userId)
        throw new ConnectionRequiredError(def.id, def.title, "no person is named for this call");
      const ref = { tenantId: tenant.tenantId, userId: tenant.userId, connector: def.id };
      accessToken = await personAccessToken({
        db,
        ref,
        title: def.title,
        client: personOAuthClient(def, settings, secrets.oauth_client_secret ?? null),
      });
    } catch (error) {
      if (sharedSet && error instanceof ConnectionRequiredError) return { baseUrl, secrets, settings };
      throw error;
    }
    const ref = { tenantId: tenant.tenantId, userId: tenant.userId as string, connector: def.id };
    const person: PersonConnectionHandle = {
      accessToken,
      refused: async () => {
        await dropConnection(db, ref);
      },
    };
    return { baseUrl, secrets, settings, person };
  };
}

/**
 * Builds a connector's adapter for a tenant, among the connectors that tenant has; a connector
 * without its secrets (or disabled) is unavailable, not a crash.
 */
export async function adapterForTenant(
  resolve: CredentialResolver,
  tenant: CallerRef,
  connector: string,
  among: readonly AnyConnector[] = connectors(),
): Promise<unknown> {
  const def = among.find((c) => c.id === connector);
  if (!def) throw new SystemUnavailableError(`no connector ${connector} is installed for this tenant`);
  const creds = await resolve(tenant, def);
  if (!creds)
    throw new SystemUnavailableError(
      `connector ${connector} is not configured for this tenant (its address or API key is not set)`,
    );
  const settings = creds.settings ?? {};
  return def.createAdapter({
    baseUrl: creds.baseUrl,
    secrets: creds.secrets,
    settings,
    ...(creds.person ? { person: creds.person } : {}),
    // Remembered per person: a call that names none (a background job) asks every time.
    ...(tenant.userId
      ? {
          lookups: connectorLookups.scoped({
            tenantId: tenant.tenantId,
            connector: def.id,
            userId: tenant.userId,
            baseUrl: creds.baseUrl,
            secrets: creds.secrets,
            settings,
            ...(creds.person ? { personToken: creds.person.accessToken } : {}),
          }),
        }
      : {}),
    // A connector the tenant does not have is null here, so a capability can answer not_found.
    adapterOf: async (id) =>
      among.some((c) => c.id === id) ? adapterForTenant(resolve, tenant, id, among) : null,
  });
}
