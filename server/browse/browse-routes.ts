import { connectors } from "../connectors/connector-registry";
import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import type { BrowseUri } from "../connectors/sdk/parse-browse-uri";
import { ACTIONS_ROUTES } from "./actions-routes";
import { CONFIG_ROUTES } from "./config-routes";
import { PERMISSION_REQUEST_ROUTE, signpostStartRoute } from "./signpost-routes";

export type { PageBody, RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";

/** Start points per connector on the start page, and connectors listed before "search". */
const STARTS_PER_CONNECTOR = 3;
const CONNECTORS_LISTED = 20;

/**
 * The start points a caller is offered, bounded however many systems are connected: Signpost's
 * own, then up to three per connector for the first twenty connectors; with `scheme`, that
 * connector's only. The rest are one `search` away, which the pages say.
 */
export function startPoints(
  backend: BrowseBackend,
  among: readonly AnyConnector[],
  scheme?: string,
): { routes: RouteDefinition[]; more: number } {
  // A system whose reads are for other roles by default (an imported one) is not offered as a
  // start: its pages would answer "permission required" (search still finds one a rule allows).
  const role = backend.who().role;
  const offered = among.filter((c) => !c.defaultAccess || c.defaultAccess.read.includes(role));
  const listed = scheme ? offered.filter((c) => c.scheme === scheme) : offered.slice(0, CONNECTORS_LISTED);
  const routes = [
    ...listed.flatMap((c) =>
      c.routes.filter((r) => r.startPoint && routeVisibleTo(r, backend)).slice(0, STARTS_PER_CONNECTOR),
    ),
    ...OWN_ROUTES.filter((r) => r.startPoint && routeVisibleTo(r, backend)),
  ];
  return { routes, more: scheme ? 0 : Math.max(0, offered.length - listed.length) };
}

/** Signpost's own pages, whichever connectors there are. */
const START_ROUTE = signpostStartRoute(async (backend) => startPoints(backend, await backend.connectors()));
const OWN_ROUTES: RouteDefinition[] = [...ACTIONS_ROUTES, ...CONFIG_ROUTES, PERMISSION_REQUEST_ROUTE];

const tables = new WeakMap<readonly AnyConnector[], RouteDefinition[]>();
const bySchemeOf = new WeakMap<RouteDefinition[], Map<string, RouteDefinition[]>>();

/** The table's routes by scheme, in table order: a match looks only at its scheme's routes. */
function routesOfScheme(table: RouteDefinition[], scheme: string): RouteDefinition[] {
  let index = bySchemeOf.get(table);
  if (!index) {
    index = new Map();
    for (const route of table) {
      const key = route.pattern.split("://")[0] ?? "";
      index.set(key, [...(index.get(key) ?? []), route]);
    }
    bySchemeOf.set(table, index);
  }
  return index.get(scheme) ?? [];
}

/**
 * The route table for a set of connectors: the start page, each connector's routes in
 * registration order, then Signpost's own. Order is match order and the start page's order.
 */
export function routeTable(among: readonly AnyConnector[] = connectors()): RouteDefinition[] {
  let table = tables.get(among);
  if (!table) {
    table = [START_ROUTE, ...among.flatMap((c) => c.routes), ...OWN_ROUTES];
    tables.set(among, table);
  }
  return table;
}

/** Whether a route exists for this caller: admin-only routes are invisible to everyone else. */
export function routeVisibleTo(route: RouteDefinition, backend: BrowseBackend): boolean {
  return !route.adminOnly || backend.who().role === "admin";
}

/** The routes this caller may see, in table order. */
export function visibleRoutes(backend: BrowseBackend, among: readonly AnyConnector[]): RouteDefinition[] {
  return routeTable(among).filter((route) => routeVisibleTo(route, backend));
}

const segmentsOf = new WeakMap<RouteDefinition, { parts: string[] }>();

function patternOf(route: RouteDefinition) {
  let parsed = segmentsOf.get(route);
  if (!parsed) {
    const path = route.pattern.split("://")[1] ?? "";
    parsed = { parts: path === "" ? [] : path.split("/") };
    segmentsOf.set(route, parsed);
  }
  return parsed;
}

export function matchRoute(
  uri: BrowseUri,
  among: readonly AnyConnector[] = connectors(),
): { route: RouteDefinition; match: RouteMatch } | null {
  for (const route of routesOfScheme(routeTable(among), uri.scheme)) {
    const { parts } = patternOf(route);
    if (parts.length !== uri.segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    parts.forEach((part, i) => {
      const segment = uri.segments[i] ?? "";
      if (part.startsWith("{") && part.endsWith("}")) params[part.slice(1, -1)] = segment;
      else if (part !== segment) ok = false;
    });
    if (ok) return { route, match: { uri, params } };
  }
  return null;
}
