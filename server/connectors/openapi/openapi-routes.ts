import type { RouteDefinition } from "../sdk/define-route";
import { detailRoute } from "./detail-route";
import { formRoute } from "./form-route";
import { listingRoute } from "./listing-route";
import { openablePages, openLink } from "./plan-operations";
import type { RouteContext } from "./route-values";

/** The browse routes of an imported connector, most specific first (match order). */
export function openApiRoutes(ctx: RouteContext): RouteDefinition[] {
  // The system's own name is a word of every page of it: "acme billing invoices" finds its listing
  // before another system's invoices.
  const named = systemWords(ctx.title);
  const nested = openablePages(ctx.plans.values());
  return [...ctx.plans.values()].map((plan) => {
    const k = nested.indexOf(plan);
    const route =
      plan.kind === "listing"
        ? listingRoute(ctx, plan, k >= 0 ? openLink(ctx.scheme, k) : undefined)
        : plan.kind === "detail"
          ? detailRoute(ctx, plan, k >= 0 ? openLink(ctx.scheme, k) : undefined)
          : formRoute(ctx, plan);
    return { ...route, keywords: [...new Set([...route.keywords, ...named])].slice(0, 48) };
  });
}

function systemWords(title: string): string[] {
  return title
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !["api", "the", "and", "for", "service", "services", "rest"].includes(w))
    .slice(0, 6);
}
