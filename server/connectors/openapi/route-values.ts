import type { RouteMatch } from "../sdk/define-route";
import { encodeSegment, formatBrowseUri, segmentValue } from "../sdk/parse-browse-uri";
import type { OperationPlan } from "./plan-operations";

/** What every generated route of one connector shares. */
export interface RouteContext {
  connectorId: string;
  scheme: string;
  title: string;
  plans: Map<string, OperationPlan>;
}

/**
 * A route pattern with its parameters filled, each value as one canonical segment (a negative id
 * as it is, `a b?` as `a%20b%3F`), or null when a value cannot be a segment (`/`, `..`, empty).
 */
export function fillPattern(pattern: string, values: Record<string, unknown>): string | null {
  let ok = true;
  const uri = pattern.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = values[name];
    const segment =
      typeof value === "number" || typeof value === "string" || typeof value === "bigint"
        ? encodeSegment(String(value))
        : null;
    if (segment === null) ok = false;
    return segment ?? "_";
  });
  return ok ? uri : null;
}

/** A route match's parameters as the values their segments stand for (`a%20b` → `a b`). */
export function routeValues(match: RouteMatch): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [route, segment] of Object.entries(match.params)) out[route] = segmentValue(segment);
  return out;
}

/** The document's path parameters from a route match (route names → document names), decoded. */
export function pathValues(plan: OperationPlan, match: RouteMatch): Record<string, string> {
  const values = routeValues(match);
  const out: Record<string, string> = {};
  for (const [route, doc] of Object.entries(plan.params))
    if (values[route] !== undefined) out[doc] = values[route] as string;
  return out;
}

/** A browse URI with query values added (`…/apps/7` + api-version → `…/apps/7?api-version=1.6`). */
export function withQuery(uri: string, query: Record<string, string>): string {
  if (!Object.keys(query).length) return uri;
  const at = uri.indexOf("://");
  return formatBrowseUri(uri.slice(0, at), uri.slice(at + 3).split("/"), query);
}
