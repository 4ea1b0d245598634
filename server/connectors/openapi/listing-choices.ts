import type { ChoiceFilter, FilterChoice, FilterSpec } from "../sdk/define-route";
import { isOutcome } from "../sdk/route-pages";
import type { ApiParameter } from "./api-operations";
import { filtersOf, missingFilters } from "./listing-filters";
import { pagingQuery } from "./listing-pagination";
import type { OperationPlan } from "./plan-operations";
import { listingRows, send } from "./read-api";
import type { RouteContext } from "./route-values";

/** Rows read for a filter's choices: one page, whatever the system holds. */
const CHOICES_PER_PAGE = 50;

/** The words a record is named by, in the fields APIs name them. */
const LABEL_KEYS = ["name", "title", "label", "display_name", "displayName"] as const;

/** The last literal segment of a listing's path, lower-cased (`/v1/teams` → teams). */
function resourceOf(plan: OperationPlan): string {
  return (
    plan.op.path
      .split("/")
      .filter((s) => s && !s.startsWith("{"))
      .pop() ?? ""
  ).toLowerCase();
}

/**
 * The imported system's own listing of the records a filter names by id (`?team_id=` → `GET
 * /v1/teams`): a listing with no path parameters and no filter it must be given, whose last
 * segment is the filter's thing in the plural. None when there is no such listing, or two.
 */
function listingOf(ctx: RouteContext, name: string): OperationPlan | undefined {
  const thing = name
    .replace(/(_id|Id)$/, "")
    .replace(/([a-z])([A-Z])/g, "$1_$2")
    .toLowerCase();
  if (thing === name.toLowerCase() && !/_id$|Id$/.test(name)) return undefined;
  const plurals = new Set([`${thing}s`, `${thing}es`, thing.replace(/y$/, "ies")]);
  const found = [...ctx.plans.values()].filter(
    (p) =>
      p.kind === "listing" &&
      Object.keys(p.params).length === 0 &&
      plurals.has(resourceOf(p)) &&
      missingFilters(filtersOf(p), {}).length === 0,
  );
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Choice filters of an imported listing: each id filter (`team_id`) with no enum whose records
 * the system lists itself reads their names from that listing's first page, asked only when a
 * search's words are left over (the browse search decides) and only where the caller may read
 * that listing. So "tickets team shipping" filters by the team as the hand-written helpdesk does.
 */
export function choiceFilters(ctx: RouteContext, filters: ApiParameter[], spec: FilterSpec): FilterSpec {
  const out: Record<string, ChoiceFilter> = {};
  for (const f of filters) {
    const t = Array.isArray(f.schema.type) ? f.schema.type[0] : f.schema.type;
    if (spec[f.name] !== undefined || f.schema.enum || (t !== undefined && t !== "string")) continue;
    const plan = listingOf(ctx, f.name);
    if (!plan) continue;
    out[f.name] = {
      async choices(backend) {
        if ((await backend.authorize("navigate", plan.pattern, { preview: true })).decision !== "allow")
          return null;
        const paging = plan.pagination ?? { kind: "none" as const };
        const answer = await send(
          ctx,
          backend,
          plan,
          {},
          pagingQuery(paging, 1, CHOICES_PER_PAGE, undefined),
        );
        if (isOutcome(answer) || answer.kind !== "ok") return null;
        const key = plan.item?.key ?? "id";
        return (listingRows(plan, answer.body, resourceOf(plan)) ?? []).flatMap((row): FilterChoice[] => {
          const value = row[key] ?? row.id;
          const label = LABEL_KEYS.map((k) => row[k]).find((v) => typeof v === "string" && v.trim());
          return typeof value === "string" || typeof value === "number"
            ? [{ value: String(value), label: typeof label === "string" ? label : String(value) }]
            : [];
        });
      },
    };
  }
  return { ...spec, ...out };
}

/**
 * An imported listing's address filters (`requester_email`, listing-filters.ts) as choices too:
 * the addresses its own first page's rows hold under the filter's name, read only when a
 * search's words are left over, so "tickets from jo" filters by jo@… as the hand-written
 * helpdesk does. Only a listing with no path to fill and no filter it must be given reads them.
 */
export function addressChoices(plan: OperationPlan, ctx: RouteContext, spec: FilterSpec): FilterSpec {
  if (Object.keys(plan.params).length || missingFilters(filtersOf(plan), {}).length) return spec;
  const out: Record<string, ChoiceFilter> = {};
  for (const [name, kind] of Object.entries(spec)) {
    if (kind !== "email address") continue;
    out[name] = {
      emailAddresses: true,
      async choices(backend) {
        if ((await backend.authorize("navigate", plan.pattern, { preview: true })).decision !== "allow")
          return null;
        const paging = plan.pagination ?? { kind: "none" as const };
        const query = pagingQuery(paging, 1, CHOICES_PER_PAGE, undefined);
        const answer = await send(ctx, backend, plan, {}, query);
        if (isOutcome(answer) || answer.kind !== "ok") return null;
        return (listingRows(plan, answer.body, resourceOf(plan)) ?? []).flatMap((row): FilterChoice[] => {
          const value = row[name];
          return typeof value === "string" && value.includes("@") ? [{ value, label: value }] : [];
        });
      },
    };
  }
  return { ...spec, ...out };
}
