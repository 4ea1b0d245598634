import { CONNECTORS } from "../connectors/connector-catalog";
import { LegacyUnavailableError } from "../connectors/legacy-client";
import type { Db } from "../db/client";
import { readSecret } from "./vault";

export interface ConnectorCredentials {
  baseUrl: string;
  apiKey: string;
}

export type CredentialResolver = (
  tenantId: string,
  connector: string,
) => Promise<ConnectorCredentials | null>;

/** Where a connector's legacy system lives: its settings, else LEGACY_URL, else the demo default. */
export async function connectorBaseUrl(db: Db, tenantId: string, connector: string): Promise<string> {
  const config = await db.connectorConfig.findFirst({ where: { tenantId, connector } });
  const base = (config?.settings as { baseUrl?: unknown } | null)?.baseUrl;
  if (typeof base === "string" && base) return base;
  return process.env.LEGACY_URL ?? `http://127.0.0.1:${process.env.LEGACY_PORT ?? "4010"}`;
}

/** The default resolver: the API key from the vault (server-internal), the URL from the connector's settings. */
export function vaultCredentials(db: Db): CredentialResolver {
  return async (tenantId, connector) => {
    const def = CONNECTORS.find((c) => c.id === connector);
    if (!def) return null;
    const apiKey = await readSecret(db, { tenantId, connector, name: def.secretName });
    if (!apiKey) return null;
    return { baseUrl: await connectorBaseUrl(db, tenantId, connector), apiKey };
  };
}

/** Builds a connector's adapter for a tenant; a connector without a key is unavailable, not a crash. */
export async function adapterForTenant(
  resolve: CredentialResolver,
  tenantId: string,
  connector: string,
): Promise<unknown> {
  const def = CONNECTORS.find((c) => c.id === connector);
  if (!def) throw new Error(`unknown connector ${connector}`);
  const creds = await resolve(tenantId, connector);
  if (!creds)
    throw new LegacyUnavailableError(`connector ${connector} has no API key configured for this tenant`);
  return def.createAdapter({ baseUrl: creds.baseUrl, apiKey: creds.apiKey });
}
