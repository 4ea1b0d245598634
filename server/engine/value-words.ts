import type { AnyCapability } from "../connectors/sdk/define-capability";
import type { ValueWords } from "./choice-words";

/**
 * The other words a capability's node declares for the values of `field`
 * (NodeDefinition.valueWords: `balance` is "store credit"), empty where it declares none.
 */
export function valueWordsOf(capability: Pick<AnyCapability, "nodes">, field: string): ValueWords {
  for (const node of capability.nodes) {
    const words = node.valueWords?.[field];
    if (words) return words;
  }
  return {};
}
