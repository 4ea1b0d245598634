import type { Db } from "../../db/client";
import { diffSecretBindings, type SecretBindingChange, secretBindings } from "./secret-bindings";

type Store = Pick<Db, "importedConnector" | "connectorConfig" | "secret">;

/**
 * What an import changes in where the connector's secrets go, against what is stored now (the
 * previous document at the connector's live base URL), and which stored secrets that clears:
 * each secret whose origins (base URL, `servers`, token URL) or way of sending changed, and any
 * stored secret the new document has no scheme for.
 */
export async function secretBindingChanges(
  store: Store,
  tenantId: string,
  id: string,
  next: { document: Record<string, unknown>; baseUrl: string },
): Promise<{ changes: SecretBindingChange[]; clears: string[] }> {
  const [existing, config, stored] = await Promise.all([
    store.importedConnector.findFirst({ where: { tenantId, connector: id } }),
    store.connectorConfig.findFirst({ where: { tenantId, connector: id } }),
    store.secret.findMany({ where: { tenantId, connector: id }, select: { name: true } }),
  ]);
  const after = secretBindings(next.document, next.baseUrl);
  let changes: SecretBindingChange[] = [];
  if (existing) {
    const liveBase = (config?.settings as { baseUrl?: unknown } | null)?.baseUrl;
    const before = secretBindings(
      JSON.parse(existing.document) as Record<string, unknown>,
      typeof liveBase === "string" ? liveBase : existing.baseUrl,
    );
    changes = diffSecretBindings(before, after);
  }
  const changed = new Set(changes.map((c) => c.secret));
  const clears = stored
    .map((r) => r.name)
    .filter((name) => changed.has(name) || !after.has(name))
    .sort();
  return { changes, clears };
}
