import {
  capabilityRegistry,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "../../connectors/connector-registry";
import type { AnyCapability } from "../../connectors/sdk/define-capability";
import { buildCapabilityIndex, type CapabilityIndex } from "../../engine/capability-search";

let indexed: { of: ReadonlyMap<string, AnyCapability>; index: CapabilityIndex } | undefined;

/**
 * The search index over every capability, rebuilt when a connector is installed after it was
 * made (cheap: dozens of entries). One for search_capabilities and for the nearest capabilities
 * a start by an unknown name is answered with, so both rank the same way.
 */
export function capabilityIndex(): CapabilityIndex {
  const current = capabilityRegistry();
  if (indexed?.of !== current)
    indexed = {
      of: current,
      index: buildCapabilityIndex([...current.values()], {
        idPrefixes: recordIdPrefixes(),
        synonyms: searchSynonyms(),
        topics: searchTopics(),
      }),
    };
  return indexed.index;
}
