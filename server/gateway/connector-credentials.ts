import { connectors } from "../connectors/connector-registry";
import { LegacyUnavailableError } from "../connectors/legacy-client";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { Db } from "../db/client";
import { readSecret } from "./vault";

export interface ConnectorCredentials {
  baseUrl: string;
  /** Secret name → value, for each secret the connector declares. */
  secrets: Record<string, string>;
}

export type CredentialResolver = (
  tenantId: string,
  connector: AnyConnector,
) => Promise<ConnectorCredentials | null>;

/**
 * An admin switched the tenant's connector off. It is a LegacyUnavailableError so every path that
 * already turns "the legacy system is unavailable" into a typed `temporarily_unavailable` answer
 * (gateway, engine, browse) does the same here, with a message that says why.
 */
export class ConnectorDisabledError extends LegacyUnavailableError {
  readonly connector: string;
  constructor(connector: string) {
    super(
      `The ${connector} connector is disabled by an admin of this tenant; it cannot be used until an admin enables it again.`,
    );
    this.name = "ConnectorDisabledError";
    this.connector = connector;
  }
}

/**
 * Where a connector's legacy system lives when its settings name no address:
 * `SIGNPOST_LEGACY_URL` (set by `npm start`), else the demo service on `LEGACY_PORT`. `/api/health`
 * probes the same address, so it checks the system the connectors would call.
 */
export function defaultLegacyUrl(): string {
  return process.env.SIGNPOST_LEGACY_URL ?? `http://127.0.0.1:${process.env.LEGACY_PORT ?? "4010"}`;
}

/** The base URL a connector config row means (its settings' baseUrl, else the default). */
export function baseUrlOf(config: { settings: unknown } | null | undefined): string {
  const base = (config?.settings as { baseUrl?: unknown } | null | undefined)?.baseUrl;
  return typeof base === "string" && base ? base : defaultLegacyUrl();
}

/**
 * The default resolver: the connector's secrets from the vault (server-internal), the URL from its
 * settings. A connector an admin disabled throws ConnectorDisabledError before a secret is read,
 * so nothing is sent to its system. Null while a declared secret is not set.
 */
export function vaultCredentials(db: Db): CredentialResolver {
  return async (tenantId, def) => {
    const config = await db.connectorConfig.findFirst({ where: { tenantId, connector: def.id } });
    if (config && !config.enabled) throw new ConnectorDisabledError(def.id);
    const secrets: Record<string, string> = {};
    for (const { name, optional } of def.secrets) {
      const value = await readSecret(db, { tenantId, connector: def.id, name });
      if (!value) {
        if (optional) continue;
        return null;
      }
      secrets[name] = value;
    }
    return { baseUrl: baseUrlOf(config), secrets };
  };
}

/**
 * Builds a connector's adapter for a tenant, among the connectors that tenant has; a connector
 * without its secrets (or disabled) is unavailable, not a crash.
 */
export async function adapterForTenant(
  resolve: CredentialResolver,
  tenantId: string,
  connector: string,
  among: readonly AnyConnector[] = connectors(),
): Promise<unknown> {
  const def = among.find((c) => c.id === connector);
  if (!def) throw new LegacyUnavailableError(`no connector ${connector} is installed for this tenant`);
  const creds = await resolve(tenantId, def);
  if (!creds)
    throw new LegacyUnavailableError(`connector ${connector} has no API key configured for this tenant`);
  return def.createAdapter({
    baseUrl: creds.baseUrl,
    secrets: creds.secrets,
    // A connector the tenant does not have is null here, so a capability can answer not_found.
    adapterOf: async (id) =>
      among.some((c) => c.id === id) ? adapterForTenant(resolve, tenantId, id, among) : null,
  });
}
