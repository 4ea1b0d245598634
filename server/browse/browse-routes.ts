import { ACTIONS_ROUTES } from "./actions-routes";
import type { BrowseBackend } from "./browse-backend";
import { CONFIG_ROUTES } from "./config-routes";
import { HELPDESK_ROUTES } from "./helpdesk-routes";
import type { BrowseUri } from "./parse-browse-uri";
import type { RouteDefinition, RouteMatch } from "./route-types";
import { SHOP_ROUTES } from "./shop-routes";
import { PERMISSION_REQUEST_ROUTE, signpostStartRoute } from "./signpost-routes";

export type { PageBody, RouteDefinition, RouteMatch } from "./route-types";

/** The route table: one file per scheme; order is match order and the start page's order. */
export const BROWSE_ROUTES: RouteDefinition[] = [
  signpostStartRoute((backend) => visibleRoutes(backend)),
  ...SHOP_ROUTES,
  ...HELPDESK_ROUTES,
  ...ACTIONS_ROUTES,
  ...CONFIG_ROUTES,
  PERMISSION_REQUEST_ROUTE,
];

/** Whether a route exists for this caller: admin-only routes are invisible to everyone else. */
export function routeVisibleTo(route: RouteDefinition, backend: BrowseBackend): boolean {
  return !route.adminOnly || backend.who().role === "admin";
}

/** The routes this caller may see, in table order. */
export function visibleRoutes(backend: BrowseBackend): RouteDefinition[] {
  return BROWSE_ROUTES.filter((route) => routeVisibleTo(route, backend));
}

export function matchRoute(uri: BrowseUri): { route: RouteDefinition; match: RouteMatch } | null {
  for (const route of BROWSE_ROUTES) {
    const [scheme, path = ""] = route.pattern.split("://") as [string, string];
    if (scheme !== uri.scheme) continue;
    const parts = path === "" ? [] : path.split("/");
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
