import type { Db } from "../db/client";
import { connectors } from "./connector-registry";
import { withImportedConnectors } from "./openapi/imported-connectors";
import type { AnyConnector } from "./sdk/define-connector";

/**
 * The connectors one tenant has: the process's installed ones, then the tenant's own imported
 * (OpenAPI) ones. Everything that serves a tenant — browse, the faces, the console — asks here,
 * so another tenant's imported connector is never listed, matched or called.
 */
export async function tenantConnectors(
  db: Db,
  tenantId: string,
  /** The tenant's configVersion, when the call already read it (see withImportedConnectors). */
  version?: number,
): Promise<readonly AnyConnector[]> {
  return withImportedConnectors(db, tenantId, connectors(), version);
}
