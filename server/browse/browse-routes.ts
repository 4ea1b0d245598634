import { connectors } from "../connectors/connector-registry";
import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import type { AnyConnector } from "../connectors/sdk/define-connector";
import type { RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";
import type { BrowseUri } from "../connectors/sdk/parse-browse-uri";
import { ACTIONS_ROUTES } from "./actions-routes";
import { CONFIG_ROUTES } from "./config-routes";
import { PERMISSION_REQUEST_ROUTE, signpostStartRoute } from "./signpost-routes";

export type { PageBody, RouteDefinition, RouteMatch } from "../connectors/sdk/define-route";

/** Signpost's own pages, whichever connectors there are. */
const START_ROUTE = signpostStartRoute(async (backend) => visibleRoutes(backend, await backend.connectors()));
const OWN_ROUTES: RouteDefinition[] = [...ACTIONS_ROUTES, ...CONFIG_ROUTES, PERMISSION_REQUEST_ROUTE];

const tables = new WeakMap<readonly AnyConnector[], RouteDefinition[]>();

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

const segmentsOf = new WeakMap<RouteDefinition, { scheme: string; parts: string[] }>();

function patternOf(route: RouteDefinition) {
  let parsed = segmentsOf.get(route);
  if (!parsed) {
    const [scheme = "", path = ""] = route.pattern.split("://") as [string, string];
    parsed = { scheme, parts: path === "" ? [] : path.split("/") };
    segmentsOf.set(route, parsed);
  }
  return parsed;
}

export function matchRoute(
  uri: BrowseUri,
  among: readonly AnyConnector[] = connectors(),
): { route: RouteDefinition; match: RouteMatch } | null {
  for (const route of routeTable(among)) {
    const { scheme, parts } = patternOf(route);
    if (scheme !== uri.scheme || parts.length !== uri.segments.length) continue;
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
