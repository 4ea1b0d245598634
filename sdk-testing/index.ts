/**
 * The connector author's test kit, `signpost/sdk/testing`: a real Signpost around one connector
 * (database, gateway, browse), in which a test acts as the agent and as the person who approves.
 * It composes the whole server, so it sits above it (the SDK itself imports nothing above the
 * connectors).
 */
export { allowEgressTo } from "./allow-egress";
export type {
  ActionOutcome,
  ConnectorWorld,
  ConnectorWorldOptions,
  TestAgent,
  TestPerson,
} from "./connector-world";
export { startConnectorWorld } from "./connector-world";
