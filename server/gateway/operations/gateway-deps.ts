import type { AnyCapability } from "../../connectors/sdk/define-capability";
import type { AnyConnector } from "../../connectors/sdk/define-connector";
import type { Db } from "../../db/client";
import type { ActionEngine } from "../../engine/action-engine";
import type { CredentialResolver } from "../connector-credentials";
import type { GatewayPipeline } from "../gateway-pipeline";

/**
 * What every operation is built from, made once by createGateway: the pipeline over the
 * database, the engine, the live capabilities and the caller's tenant's connectors.
 */
export interface GatewayDeps extends GatewayPipeline {
  db: Db;
  engine: ActionEngine;
  capabilities: ReadonlyMap<string, AnyCapability>;
  /** Where API keys come from (the vault, or what a test injects). */
  credentials: CredentialResolver;
  /** The installed connectors, then this tenant's imported ones; never another tenant's. */
  connectorsFor: (ctx: { tenantId: string; tenantVersion?: number }) => Promise<readonly AnyConnector[]>;
}
