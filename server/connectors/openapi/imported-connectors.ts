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
  { stamp: string; installed: readonly AnyConnector[]; list: Promise<readonly AnyConnector[]> }
>();
/** Per tenant, the imported connectors that could not be served, with why (shown by the console and CLI). */
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
 * documents. Each call asks the database one small question — how many rows and the latest
 * change — and generates again only when that changed, so an import (in this process or
 * another) is served on the next call, and other calls cost one aggregate query.
 */
export async function withImportedConnectors(
  db: Db,
  tenantId: string,
  installed: readonly AnyConnector[],
): Promise<readonly AnyConnector[]> {
  const agg = await db.importedConnector.aggregate({
    where: { tenantId },
    _count: { _all: true },
    _max: { updatedAt: true },
  });
  if (agg._count._all === 0) {
    cache.delete(tenantId);
    return installed;
  }
  const stamp = `${agg._count._all}:${agg._max.updatedAt?.getTime() ?? 0}`;
  const hit = cache.get(tenantId);
  if (hit && hit.stamp === stamp && hit.installed === installed) {
    // Most recently used last: the first key is the one to drop.
    cache.delete(tenantId);
    cache.set(tenantId, hit);
    return hit.list;
  }
  const list = generate(db, tenantId, installed);
  cache.set(tenantId, { stamp, installed, list });
  if (cache.size > MAX_CACHED_TENANTS) cache.delete(cache.keys().next().value as string);
  list.catch(() => cache.delete(tenantId));
  return list;
}
