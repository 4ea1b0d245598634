import type { Route } from "./http/define-route";
import { catalogRoutes } from "./shop/catalog-routes";
import { adminRoutes } from "./system/admin-routes";
import { systemRoutes } from "./system/system-routes";

/** Every endpoint of the service, in matching order; the OpenAPI document is generated from it. */
export const legacyRoutes: readonly Route[] = [...systemRoutes, ...catalogRoutes, ...adminRoutes];
