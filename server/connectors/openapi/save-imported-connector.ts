import type { Db } from "../../db/client";
import type { PreparedImport } from "./prepare-openapi-import";
import { secretBindingChanges } from "./secret-binding-changes";

type Store = Pick<Db, "importedConnector" | "connectorConfig" | "secret">;

/**
 * Stores a prepared import (inside the caller's transaction): the document and settings, and
 * the connector's base URL in its settings, where the credential resolver and the console's
 * Connectors page read it. Secrets are bound to where they may be sent (secret-bindings.ts): a
 * re-import that changes that deletes them in the same transaction. Returns the names it deleted.
 */
export async function saveImportedConnector(
  tx: Store,
  prepared: PreparedImport,
): Promise<{ secretsCleared: string[] }> {
  const { tenantId, id } = prepared;
  const config = await tx.connectorConfig.findFirst({ where: { tenantId, connector: id } });
  // Decided again inside the transaction: a secret set since the preview is judged too.
  const { clears: secretsCleared } = await secretBindingChanges(tx, tenantId, id, {
    document: JSON.parse(prepared.document) as Record<string, unknown>,
    baseUrl: prepared.baseUrl,
  });
  if (secretsCleared.length)
    await tx.secret.deleteMany({ where: { tenantId, connector: id, name: { in: secretsCleared } } });
  const data = {
    title: prepared.title,
    document: prepared.document,
    baseUrl: prepared.baseUrl,
    readRoles: prepared.readRoles.join(","),
    idempotencyHeader: prepared.idempotencyHeader ?? null,
    readOperations: prepared.readOperations.join(","),
    warnings: JSON.stringify(prepared.warnings),
  };
  await tx.importedConnector.upsert({
    where: { tenantId_connector: { tenantId, connector: id } },
    create: { tenantId, connector: id, ...data },
    update: data,
  });
  const settings = {
    ...((config?.settings as Record<string, unknown>) ?? {}),
    ...prepared.settings,
    baseUrl: prepared.baseUrl,
  };
  await tx.connectorConfig.upsert({
    where: { tenantId_connector: { tenantId, connector: id } },
    create: { tenantId, connector: id, settings, enabled: true },
    update: { settings },
  });
  return { secretsCleared };
}
