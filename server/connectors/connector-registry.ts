import { helpdeskConnector } from "./helpdesk/helpdesk-connector";
import { openapiConnector } from "./openapi/openapi-connector";
import type { AnyCapability } from "./sdk/define-capability";
import { type AnyConnector, type ConnectorEntity, connectorProblem } from "./sdk/define-connector";
import { shopConnector } from "./shop/shop-connector";

/** The connectors Signpost ships with: the demo systems, and the home of imported ones' writes. */
export const BUILT_IN_CONNECTORS: readonly AnyConnector[] = [
  shopConnector,
  helpdeskConnector,
  openapiConnector,
];

/**
 * Connectors installed from SIGNPOST_CONNECTORS_DIR, kept on the process: the server entry
 * installs them before Next.js starts, and the Next.js bundle has its own copy of this module.
 */
const holder = globalThis as {
  __signpostInstalledConnectors?: { list: AnyConnector[]; version: number };
};
holder.__signpostInstalledConnectors ??= { list: [], version: 0 };
const installed = holder.__signpostInstalledConnectors;

let registered: readonly AnyConnector[] = BUILT_IN_CONNECTORS;
let seen = -1;

/**
 * Every connector of this process: the built-in ones, then those installed from
 * SIGNPOST_CONNECTORS_DIR at start. Imported (OpenAPI) connectors belong to one tenant each and
 * are not here: tenantConnectors adds them per tenant. The same array until one is installed
 * (route tables and vocabularies are cached by it).
 */
export function connectors(): readonly AnyConnector[] {
  if (seen !== installed.version) {
    registered = [...BUILT_IN_CONNECTORS, ...installed.list];
    seen = installed.version;
  }
  return registered;
}

/**
 * Why `def` cannot join `existing` (its own problems, or an id, scheme, entity, id prefix or
 * capability another connector has), or null. One check for installed and imported connectors.
 */
export function registrationProblem(def: AnyConnector, existing: readonly AnyConnector[]): string | null {
  const own = connectorProblem(def);
  if (own) return own;
  for (const other of existing) {
    if (other.id === def.id) return `connector id "${def.id}" is taken`;
    if (other.scheme === def.scheme) return `scheme "${def.scheme}://" is taken by connector ${other.id}`;
    for (const entity of def.entities) {
      // Prefixes end in `_`, so one starting with another is the only way two could overlap.
      const clash = other.entities.find(
        (e) =>
          e.name === entity.name ||
          e.idPrefix.startsWith(entity.idPrefix) ||
          entity.idPrefix.startsWith(e.idPrefix),
      );
      if (clash) return `entity ${entity.name} (${entity.idPrefix}) clashes with ${other.id}'s ${clash.name}`;
    }
    for (const cap of def.capabilities)
      if (other.capabilities.some((c) => c.id === cap.id))
        return `capability ${cap.id} is already defined by ${other.id}`;
  }
  return null;
}

/** Adds an installed connector; refused (with the reason) when it clashes or is malformed. */
export function registerConnector(def: AnyConnector): { ok: true } | { ok: false; problem: string } {
  const problem = registrationProblem(def, connectors());
  if (problem) return { ok: false, problem };
  installed.list.push(def);
  installed.version++;
  return { ok: true };
}

/** Forgets installed connectors (tests that install their own start from the built-in set). */
export function resetInstalledConnectors(): void {
  installed.list.splice(0, installed.list.length);
  installed.version++;
}

/**
 * The entity a name means, as a person or a capability's `applies_to` spells it ("order",
 * "Order", "orders"), else the one whose declared id prefix starts `id` (`ord_…` is an order):
 * a model that names a record's kind its own way still reads the record in one call. Only a
 * single match counts; none or two is undefined (the caller lists the kinds).
 */
export function findEntity(
  name: string,
  among: readonly AnyConnector[] = connectors(),
  id?: string,
): { connector: AnyConnector; entity: ConnectorEntity<unknown> } | undefined {
  const all = among.flatMap((connector) => connector.entities.map((entity) => ({ connector, entity })));
  const exact = all.find((e) => e.entity.name === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const spelt = all.filter((e) =>
    [lower, lower.replace(/s$/, ""), lower.replace(/es$/, "")].includes(e.entity.name),
  );
  if (spelt.length === 1) return spelt[0];
  const prefixed = id ? all.filter((e) => e.entity.idPrefix && id.startsWith(e.entity.idPrefix)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Each record id prefix the connectors declare, with the entity it names (for capability search). */
export function recordIdPrefixes(): Record<string, string> {
  return Object.fromEntries(connectors().flatMap((c) => c.entities.map((e) => [e.idPrefix, e.name])));
}

const capabilityMaps = new WeakMap<readonly AnyConnector[], Map<string, AnyCapability>>();

/** Every capability of the installed connectors, by id: current after each installation. */
export function capabilityRegistry(): ReadonlyMap<string, AnyCapability> {
  const among = connectors();
  let map = capabilityMaps.get(among);
  if (!map) {
    map = new Map(among.flatMap((c) => c.capabilities.map((cap) => [cap.id, cap] as const)));
    capabilityMaps.set(among, map);
  }
  return map;
}

/**
 * What a person reads for a capability: the title its declaration gives ("Close account"),
 * never a guess from its id. An action whose connector is no longer installed keeps its bare id.
 */
export function capabilityTitle(id: string): string {
  return capabilityRegistry().get(id)?.title ?? id;
}

/**
 * The capability registry as the engine holds it: a map that always reads the current
 * installations, so a gateway built before a connector was installed still knows its
 * capabilities (and a permission check never mistakes one for an unknown capability).
 */
export const liveCapabilities: ReadonlyMap<string, AnyCapability> = {
  get: (id) => capabilityRegistry().get(id),
  has: (id) => capabilityRegistry().has(id),
  get size() {
    return capabilityRegistry().size;
  },
  forEach: (fn, self) => capabilityRegistry().forEach(fn, self),
  entries: () => capabilityRegistry().entries(),
  keys: () => capabilityRegistry().keys(),
  values: () => capabilityRegistry().values(),
  [Symbol.iterator]: () => capabilityRegistry()[Symbol.iterator](),
};

/** Every connector's query synonyms, merged (search_capabilities expands queries with them). */
export function searchSynonyms(): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const c of connectors())
    for (const [word, terms] of Object.entries(c.searchSynonyms ?? {}))
      merged[word] = [...new Set([...(merged[word] ?? []), ...terms])];
  return merged;
}

/** Each connector's topic words, by connector id (search_capabilities weighs them as topics). */
export function searchTopics(): Record<string, string[]> {
  return Object.fromEntries(connectors().map((c) => [c.id, c.searchTopics ?? []]));
}
