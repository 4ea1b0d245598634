import type { BrowseBackend } from "./browse-backend";
import type { Actor, AnyCapability } from "./define-capability";
import type { RouteDefinition } from "./define-route";
import type { NextAction } from "./outcome";
import { FOREIGN_SCHEMES } from "./parse-browse-uri";

/** A vault secret the connector needs: set by an admin (write-only), never shown to anyone. */
export interface ConnectorSecret {
  name: string;
  description: string;
}

/** What an adapter is built from, per tenant: the system's address and the tenant's secrets. */
export interface AdapterOptions {
  baseUrl: string;
  /** Secret name → value, for the names the connector declares; read server-side only. */
  secrets: Record<string, string>;
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
  /** The form route each capability is filled in on, shown next to it in search results. */
  forms?: Record<string, string>;
  /**
   * Records matching a query, as markdown list lines made with `link()`; at most a handful. A
   * connector that fails here is left out of the results, never failing the search.
   */
  searchRecords?(query: RecordQuery, backend: BrowseBackend): Promise<string[]>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds connectors of every adapter type
export type AnyConnector = ConnectorDefinition<any>;

const ID = /^[a-z][a-z0-9]{1,29}$/;
/** Schemes Signpost's own pages (and the web) use; a connector cannot shadow them. */
export const RESERVED_SCHEMES = ["signpost", "actions", "config", "search", ...FOREIGN_SCHEMES];

/** Why a definition is unusable, or null. Checked at registration, so a bad one never half-loads. */
export function connectorProblem(def: AnyConnector): string | null {
  if (!ID.test(def.id))
    return `id "${def.id}" must be 2-30 lowercase letters or digits, starting with a letter`;
  if (!ID.test(def.scheme)) return `scheme "${def.scheme}" must be 2-30 lowercase letters or digits`;
  if (RESERVED_SCHEMES.includes(def.scheme)) return `scheme "${def.scheme}" is reserved by Signpost`;
  if (typeof def.createAdapter !== "function") return "createAdapter must be a function";
  for (const route of def.routes ?? []) {
    if (!route.pattern.startsWith(`${def.scheme}://`))
      return `route ${route.pattern} is outside the connector's scheme ${def.scheme}://`;
    if (typeof route.render !== "function") return `route ${route.pattern} has no render function`;
  }
  for (const cap of def.capabilities ?? [])
    if (cap.connector !== def.id)
      return `capability ${cap.id} names connector ${cap.connector}, not ${def.id}`;
  return null;
}

/**
 * The one entry point of the connector SDK: everything Signpost knows about one system. It
 * checks the definition at once, so a mistake fails where it was made, naming the connector.
 */
export function defineConnector<A>(def: ConnectorDefinition<A>): ConnectorDefinition<A> {
  const problem = connectorProblem(def);
  if (problem) throw new Error(`connector ${def.id}: ${problem}`);
  return def;
}
