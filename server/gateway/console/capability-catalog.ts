import { connectors } from "../../connectors/connector-registry";
import { describeInputs, type InputDescription } from "../../engine/describe-inputs";

export type CatalogCapability = {
  id: string;
  connector: string;
  title: string;
  description: string;
  trigger: { use: string; avoid: string };
  appliesTo: string;
  prerequisites: string[];
  inputs: InputDescription[];
  sideEffects: string[];
  effect: "read" | "write";
  permission: string;
  roles: string[];
  approval: string;
  confirmationNodes: string[];
};

/** What the catalog page shows of each capability: its declaration, never its code. */
export function listCatalogCapabilities(): CatalogCapability[] {
  return connectors().flatMap((connector) =>
    connector.capabilities.map((c) => ({
      id: c.id,
      connector: connector.id,
      title: c.title,
      description: c.description,
      trigger: c.trigger,
      appliesTo: c.appliesTo.entity,
      prerequisites: c.prerequisites,
      inputs: describeInputs(c),
      sideEffects: c.sideEffects,
      effect: c.policy.effect,
      permission: c.policy.permission,
      roles: c.policy.roles,
      approval: typeof c.policy.approval === "function" ? "when the summary needs it" : c.policy.approval,
      confirmationNodes: c.nodes.filter((n) => n.requiresConfirmation).map((n) => n.id),
    })),
  );
}
