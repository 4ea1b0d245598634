import type { Actor, AnyCapability } from "../connectors/sdk/define-capability";
import type { Db } from "../db/client";

/** What every engine operation works with; the gateway provides it once, in `createActionEngine`. */
export interface EngineDeps {
  db: Db;
  capabilities: ReadonlyMap<string, AnyCapability>;
  /** Builds the connector's adapter with credentials from the vault; the engine never sees them. */
  adapterFor: (connector: string, actor: Actor) => Promise<unknown>;
  /** Where a person approves: `/confirm/{action_id}` in the console. */
  approvalUrl: (actionId: string) => string;
}
