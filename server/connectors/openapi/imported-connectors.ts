import SwaggerParser from "@apidevtools/swagger-parser";
import type { OpenAPIV3 } from "openapi-types";
import type { Db } from "../../db/client";
import { registrationProblem } from "../connector-registry";
import type { AnyConnector } from "../sdk/define-connector";
import { generateOpenApiConnector, type ImportSettings, type Role } from "./generate-openapi-connector";

type Row = Awaited<ReturnType<Db["importedConnector"]["findMany"]>>[number];

/** Tenants whose generated connectors are kept; a tenant past it is generated again when asked. */
const MAX_CACHED_TENANTS = 200;
const cache = new Map<
  string,
  { db: Db; stamp: number; installed: readonly AnyConnector[]; list: Promise<readonly AnyConnector[]> }
>();
/**
 * Per tenant, the imported connectors that could not be served, with why. Neither the console nor
 * the CLI shows it yet (the tests read it); such a connector is simply not served.
 */
const problems = new Map<string, Array<{ connector: string; problem: string }>>();

/** Why some of a tenant's imported connectors are not served, as of the last generation. */
export function importedConnectorProblems(tenantId: string): Array<{ connector: string; problem: string }> {
  return problems.get(tenantId) ?? [];
}

export function settingsOf(
  row: Pick<Row, "connector" | "title" | "baseUrl" | "readRoles" | "idempotencyHeader" | "readOperations">,
): ImportSettings {
  return {
    id: row.connector,
    title: row.title,
    baseUrl: row.baseUrl,
    readRoles: row.readRoles
      .split(",")
      .filter((r): r is Role => r === "admin" || r === "support" || r === "member"),
    idempotencyHeader: row.idempotencyHeader ?? undefined,
    readOperations: row.readOperations ? row.readOperations.split(",") : [],
  };
}

/** A stored document (validated when it was imported) as a connector again: dereferenced, then generated. */
export async function connectorFromRow(row: Row): Promise<AnyConnector> {
  const document = JSON.parse(row.document) as Record<string, unknown>;
  const api = (await SwaggerParser.dereference(structuredClone(document) as never, {
    resolve: { external: false },
  })) as OpenAPIV3.Document;
  return generateOpenApiConnector(
    { document, api, sourceVersion: String(document.openapi), warnings: [] },
    settingsOf(row),
  );
}

async function generate(
  db: Db,
  tenantId: string,
  installed: readonly AnyConnector[],
): Promise<readonly AnyConnector[]> {
  const rows = await db.importedConnector.findMany({ where: { tenantId }, orderBy: { createdAt: "asc" } });
  if (rows.length === 0) {
    // The installed list itself: what is keyed on it (route tables, search indexes) stays warm.
    problems.delete(tenantId);
    return installed;
  }
  const list: AnyConnector[] = [...installed];
  const failed: Array<{ connector: string; problem: string }> = [];
  for (const row of rows) {
    try {
      const def = await connectorFromRow(row);
      const problem = registrationProblem(def, list);
      if (problem) failed.push({ connector: row.connector, problem });
      else list.push(def);
    } catch (error) {
      // One broken document never takes the tenant's other systems with it.
      failed.push({ connector: row.connector, problem: (error as Error).message.slice(0, 300) });
    }
  }
  problems.set(tenantId, failed);
  if (problems.size > MAX_CACHED_TENANTS) problems.delete(problems.keys().next().value as string);
  return list;
}

/**
 * The installed connectors, then this tenant's imported ones, generated from their stored
 * documents. Generated again only when the tenant's configVersion moved (database triggers bump
 * it on every change of an imported connector, in this process or another), so an import is
 * served on the next call. `version`: the stamp the call already read with its tenant row; without
 * it, one small query reads it.
 */
export async function withImportedConnectors(
  db: Db,
  tenantId: string,
  installed: readonly AnyConnector[],
  version?: number,
): Promise<readonly AnyConnector[]> {
  const stamp =
    version ??
    (await db.tenant.findUnique({ where: { id: tenantId }, select: { configVersion: true } }))
      ?.configVersion ??
    0;
  const hit = cache.get(tenantId);
  // A copy at a newer stamp also serves a call that read its stamp just before the change.
  if (hit && hit.db === db && hit.stamp >= stamp && hit.installed === installed) {
    // Most recently used last: the first key is the one to drop.
    cache.delete(tenantId);
    cache.set(tenantId, hit);
    return hit.list;
  }
  const list = generate(db, tenantId, installed);
  cache.set(tenantId, { db, stamp, installed, list });
  if (cache.size > MAX_CACHED_TENANTS) cache.delete(cache.keys().next().value as string);
  list.catch(() => cache.delete(tenantId));
  return list;
}
