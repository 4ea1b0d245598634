import type { Db } from "../../db/client";
import type { PreparedImport } from "./prepare-openapi-import";

type Store = Pick<Db, "importedConnector" | "connectorConfig" | "secret">;

function originOf(text: string): string | null {
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}

/**
 * Stores a prepared import (inside the caller's transaction): the document and settings, and
 * the connector's base URL in its settings, where the credential resolver and the console's
 * Connectors page read it. Secrets are bound to the origin they were set for: a re-import to
 * another origin deletes the connector's stored secrets. Returns the names it deleted.
 */
export async function saveImportedConnector(
  tx: Store,
  prepared: PreparedImport,
): Promise<{ secretsCleared: string[] }> {
  const { tenantId, id } = prepared;
  const config = await tx.connectorConfig.findFirst({ where: { tenantId, connector: id } });
  const previous = (config?.settings as { baseUrl?: unknown } | null)?.baseUrl;
  let secretsCleared: string[] = [];
  if (typeof previous === "string" && originOf(previous) !== originOf(prepared.baseUrl)) {
    const rows = await tx.secret.findMany({ where: { tenantId, connector: id }, select: { name: true } });
    secretsCleared = rows.map((r) => r.name).sort();
    await tx.secret.deleteMany({ where: { tenantId, connector: id } });
  }
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
  const settings = { ...((config?.settings as Record<string, unknown>) ?? {}), baseUrl: prepared.baseUrl };
  await tx.connectorConfig.upsert({
    where: { tenantId_connector: { tenantId, connector: id } },
    create: { tenantId, connector: id, settings, enabled: true },
    update: { settings },
  });
  return { secretsCleared };
}
