import type { BrowseBackend } from "./browse-backend";
import type { CachedLookups } from "./cached-lookups";
import type { Actor, AnyCapability } from "./define-capability";
import { patternProblem, type RouteDefinition, resourceName } from "./define-route";
import type { NextAction } from "./outcome";
import { FOREIGN_SCHEMES, SCHEME_PATTERN } from "./parse-browse-uri";
import {
  PERSON_AUTH_SECRET,
  PERSON_AUTH_SETTINGS,
  type PersonAuth,
  type PersonConnectionHandle,
  personAuthProblem,
} from "./person-auth";

export type { ConnectorSecret, ConnectorSetting } from "./connector-secret";

import type { ConnectorSecret, ConnectorSetting } from "./connector-secret";

/** What an adapter is built from, per tenant: the system's address and the tenant's secrets. */
export interface AdapterOptions {
  baseUrl: string;
  /** The connector's declared settings (`settings`) an admin has set, by name. */
  settings?: Record<string, string>;
  /** Secret name → value, for the names the connector declares; read server-side only. */
  secrets: Record<string, string>;
  /**
   * Another connector's adapter for the same tenant, built the same way; null when the tenant
   * has no connector by that id. For connectors whose capabilities act on other connectors (the
   * generic write of imported systems).
   */
  adapterOf?: (connectorId: string) => Promise<unknown>;
  /**
   * With `personAuth`: the connection of the person the call is for (their access token, fresh).
   * The gateway builds no adapter without it; the call answers `connection_required` instead.
   */
  person?: PersonConnectionHandle;
  /**
   * Lookups remembered between calls for this tenant, connector, credentials and person (who the
   * caller is in the system): see CachedLookups. Absent: no memory (ask every time).
   */
  lookups?: CachedLookups;
}

/** An entity view: one read assembled for one business judgement, with what may be done now. */
export type EntityView = {
  entity: string;
  status?: unknown;
  next_actions: NextAction[];
} & Record<string, unknown>;

/** A kind of record the connector serves, readable through `get_context` and linked by search. */
export interface ConnectorEntity<A> {
  /** The `get_context` entity name (`order`); unique across connectors. */
  name: string;
  label: string;
  /** How its ids start (`ord_`), so an id in a query points at the right connector. */
  idPrefix: string;
  /** The browse page that shows one. */
  uri(id: string): string;
  /** Roles that may read it at all; to anyone else a record is `not_found`. Default: every role. */
  roles?: Array<Actor["role"]>;
  /** The view for this actor, or null when the record is not there for them. */
  view(adapter: A, actor: Actor, id: string): Promise<EntityView | null>;
}

/** What `search(query)` asks each connector for: the query, its words, and whether it says "mine". */
export interface RecordQuery {
  query: string;
  words: string[];
  mine: boolean;
}

export interface ConnectorDefinition<A = unknown> {
  /** Stable id: the vault and config rows' connector name, and the permission rules' scheme. */
  id: string;
  title: string;
  /** URI scheme of its browse routes (`shop` → `shop://orders`). */
  scheme: string;
  /** One line for the start page and the console. */
  description: string;
  /** The vault secrets it needs; an adapter is built only when they are set. */
  secrets: ConnectorSecret[];
  /** Non-secret values an admin sets once for the tenant (see ConnectorSetting). */
  settings?: ConnectorSetting[];
  /**
   * Each person connects their own account (OAuth authorization code): the adapter gets
   * `options.person`. defineConnector adds the OAuth client's settings and secret.
   */
  personAuth?: PersonAuth;
  createAdapter(options: AdapterOptions): A;
  /**
   * The system's cheap, unauthenticated liveness path, probed by /api/health/ready: a system
   * that does not answer is reported as degraded, never as Signpost being unready.
   */
  healthPath: string;
  /**
   * "Test connection" in the console: one authenticated request, made server-side, proving the
   * secrets work. Only whether it passed and the HTTP status are used; nothing of the body.
   */
  checkConnection(options: AdapterOptions, signal: AbortSignal): Promise<{ ok: boolean; status: number }>;
  capabilities: AnyCapability[];
  entities: ConnectorEntity<A>[];
  /** Browse routes, all under `scheme://`; listing pages marked `startPoint` open the start page. */
  routes: RouteDefinition[];
  /**
   * Words people use for this system's intents, each with the (stemmed) capability terms it
   * means: `buy` → `checkout`. search_capabilities expands a query with them.
   */
  searchSynonyms?: Record<string, string[]>;
  /**
   * Words that name the things this system's requests are about (parcel, package), not what to
   * do with them: search_capabilities counts them less than the words naming the outcome asked
   * for, so "my parcel is late, refund me" is a refund, not tracking. Entity names count as
   * topics without being listed.
   */
  searchTopics?: string[];
  /**
   * Who may use the connector when no permission rule says otherwise: `read` roles search,
   * navigate and submit its pages; `start` roles start actions whose permission target is one
   * of its URIs. Absent: every role reads, and a capability's policy decides who starts it.
   */
  defaultAccess?: { read: Array<Actor["role"]>; start: Array<Actor["role"]> };
  /**
   * Where the system lives when a tenant's settings name no address (the demo systems). Without
   * it a tenant sets the address first; until then the connector is not configured.
   */
  defaultBaseUrl?: () => string;
  /**
   * `false` for a connector with no system of its own (no address, secrets or health probe):
   * its pages and capabilities work over other connectors. The console lists no settings card
   * for it and readiness probes nothing. Default: it has one.
   */
  system?: boolean;
  /** The form route each capability is filled in on, shown next to it in search results. */
  forms?: Record<string, string>;
  /**
   * Records matching a query, as markdown list lines made with `link()`; at most a handful. A
   * connector that fails here is left out of the results, never failing the search.
   */
  searchRecords?(query: RecordQuery, backend: BrowseBackend): Promise<string[]>;
  /**
   * The listings whose records `searchRecords` looks through for this query, as URIs of this
   * connector's listing routes with the filters it applied and without the words (`?status=open`,
   * never `?q=`). A search that found nothing opens each (with the caller's permissions) to say
   * how many records it read, in which fields (the route's `textSearches`), and, when they are
   * few, which: so "none" reads as final. Name only listings whose every record was searched.
   */
  searchedListings?(query: RecordQuery): string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds connectors of every adapter type
export type AnyConnector = ConnectorDefinition<any>;

/** A connector's id has the form of a scheme (an imported one's id is its scheme). */
const ID = SCHEME_PATTERN;
/** A `get_context` entity name (the tool's input pattern). */
const ENTITY = /^[a-z][a-z0-9_]{0,39}$/;
/** An id prefix: letters or digits and a closing `_` (`ord_`), so one never swallows another's. */
const ID_PREFIX = /^[a-z][a-z0-9]{0,15}_$/;
/**
 * Schemes Signpost's own pages, its permission grammar's target forms and the web use; a
 * connector cannot take them (a `capability:**` rule must never match a connector's page).
 */
export const RESERVED_SCHEMES = [
  "signpost",
  "actions",
  "action",
  "config",
  "search",
  "capability",
  "capabilities",
  "entity",
  ...FOREIGN_SCHEMES,
];
/** Ids a connector cannot have: `config://connectors` is the list of connectors. */
const RESERVED_IDS = ["connectors", ...RESERVED_SCHEMES];

const inScheme = (def: AnyConnector, uri: string) => uri.startsWith(`${def.scheme}://`);

/**
 * Why a definition is unusable, or null. Checked at registration, so a bad one never half-loads
 * and can never stop the others (or Signpost) from serving.
 */
export function connectorProblem(def: AnyConnector): string | null {
  if (!def || typeof def !== "object") return "not a connector definition";
  if (typeof def.id !== "string" || !ID.test(def.id))
    return `id "${String(def.id).slice(0, 40)}" must be 2-30 lowercase letters or digits, starting with a letter`;
  if (RESERVED_IDS.includes(def.id)) return `id "${def.id}" is reserved by Signpost`;
  if (typeof def.scheme !== "string" || !ID.test(def.scheme))
    return `scheme "${String(def.scheme).slice(0, 40)}" must be 2-30 lowercase letters or digits`;
  if (RESERVED_SCHEMES.includes(def.scheme)) return `scheme "${def.scheme}" is reserved by Signpost`;
  for (const key of ["secrets", "capabilities", "entities", "routes"] as const)
    if (!Array.isArray(def[key])) return `${key} must be a list (empty when there are none)`;
  if (typeof def.createAdapter !== "function") return "createAdapter must be a function";
  if (def.personAuth !== undefined) {
    const problem = personAuthProblem(def.personAuth);
    if (problem) return problem;
  }
  if (typeof def.checkConnection !== "function") return "checkConnection must be a function";
  if (typeof def.healthPath !== "string" || !/^\/(?!\/)/.test(def.healthPath))
    return "healthPath must be a path on the system, starting with a single /";
  const patterns = new Set<string>();
  const names = new Set<string>();
  for (const route of def.routes) {
    const problem =
      typeof route?.pattern === "string" ? patternProblem(route.pattern) : "a route has no pattern";
    if (problem) return problem;
    if (!inScheme(def, route.pattern))
      return `route ${route.pattern} is outside the connector's scheme ${def.scheme}://`;
    if (typeof route.render !== "function") return `route ${route.pattern} has no render function`;
    if (Object.values(route.filters ?? {}).includes("free text") && !route.textSearches?.trim())
      return `route ${route.pattern} has a free-text filter but no textSearches (what it searches)`;
    if (patterns.has(route.pattern) || names.has(resourceName(route.pattern)))
      return `route ${route.pattern} is declared twice (or spelled like another route)`;
    patterns.add(route.pattern);
    names.add(resourceName(route.pattern));
  }
  for (const cap of def.capabilities)
    if (cap?.connector !== def.id)
      return `capability ${cap?.id} names connector ${cap?.connector}, not ${def.id}`;
  for (const entity of def.entities) {
    if (!ENTITY.test(String(entity?.name)))
      return `entity name "${String(entity?.name).slice(0, 40)}" is not a-z0-9_`;
    if (!ID_PREFIX.test(String(entity.idPrefix)))
      return `entity ${entity.name}: idPrefix "${String(entity.idPrefix).slice(0, 20)}" must be letters or digits ending in _`;
    if (typeof entity.uri !== "function" || !inScheme(def, String(entity.uri("x"))))
      return `entity ${entity.name}: its uri() must give a page under ${def.scheme}://`;
  }
  const own = new Set(def.capabilities.map((c) => c.id));
  for (const [capability, form] of Object.entries(def.forms ?? {})) {
    if (!own.has(capability))
      return `forms names ${capability}, which is not one of this connector's capabilities`;
    if (!patterns.has(form)) return `forms: ${form} is not one of this connector's routes`;
  }
  return null;
}

/**
 * The one entry point of the connector SDK: everything Signpost knows about one system. It
 * checks the definition at once, so a mistake fails where it was made, naming the connector.
 */
export function defineConnector<A>(def: ConnectorDefinition<A>): ConnectorDefinition<A> {
  const problem = connectorProblem(def);
  if (problem) throw new Error(`connector ${def.id}: ${problem}`);
  if (!def.personAuth) return def;
  // The OAuth client an admin sets for everyone's connections: declared once here, not by each connector.
  const settings = def.settings ?? [];
  const own = new Set(settings.map((s) => s.name));
  return {
    ...def,
    settings: [...settings, ...PERSON_AUTH_SETTINGS.filter((s) => !own.has(s.name))],
    secrets: def.secrets.some((s) => s.name === PERSON_AUTH_SECRET.name)
      ? def.secrets
      : [...def.secrets, PERSON_AUTH_SECRET],
  };
}

// A connector's routes render with a BrowseBackend, and the backend lists connectors: the types
// are mutually recursive. The method naming AnyConnector is added here, so browse-backend.ts
// and define-route.ts never import this file back (no import cycle).
declare module "./browse-backend" {
  interface BrowseBackend {
    /** Every connector this caller's tenant has: the built-in and installed ones, then its imported ones. */
    connectors(): Promise<readonly AnyConnector[]>;
  }
}
