import type { RouteDefinition, RouteMatch } from "../sdk/define-route";
import { askedColumns, moreColumnsLine, rowFields } from "../sdk/listing-columns";
import { code, escapeText, link, recordRowLink } from "../sdk/markdown";
import { formatBrowseUri } from "../sdk/parse-browse-uri";
import { isOutcome, noRowsLine, outcomePage, pageNumber } from "../sdk/route-pages";
import { rowUriPattern } from "../sdk/row-uri-pattern";
import { addressChoices, choiceFilters } from "./listing-choices";
import {
  askForFilters,
  detailQuery,
  filterProblem,
  filtersOf,
  missingFilters,
  openWithFilters,
  searchFilters,
  textSearchesOf,
} from "./listing-filters";
import { DEFAULT_PER_PAGE, nextPage, pagingQuery } from "./listing-pagination";
import { rowKey } from "./listing-rows";
import { OPENAPI_LIMITS } from "./openapi-limits";
import { operationKeywords, operationTitle, routeDescription } from "./operation-words";
import type { OperationPlan } from "./plan-operations";
import { asRow, documentedValue, failurePage, listingRows, send } from "./read-api";
import { formsSection } from "./related-links";
import { columnsOf, cut, objectMarkdown, rowsTable } from "./render-api-response";
import { fillPattern, pathValues, type RouteContext, routeValues, withQuery } from "./route-values";

/** A listing GET as a page: its filters checked or asked for, one page of rows, links to each row and the next page. */
export function listingRoute(ctx: RouteContext, plan: OperationPlan, opener?: string): RouteDefinition {
  const filters = filtersOf(plan);
  const asks = missingFilters(filters, {}).length > 0;
  // Row keys timing an event (`shipped_at`) the API does not filter by: narrowed here, per page.
  const stamps = (plan.rows?.stamps ?? []).filter((k) => !filters.some((f) => f.name === k));
  const spec = {
    ...addressChoices(plan, ctx, choiceFilters(ctx, filters, searchFilters(filters))),
    ...Object.fromEntries(stamps.map((k) => [k, "event time" as const])),
  };
  const paging = plan.pagination ?? { kind: "none" as const };
  const title = operationTitle(plan);
  const resource =
    plan.op.path
      .split("/")
      .filter((s) => s && !s.startsWith("{"))
      .pop() ?? "";
  const accepted = [
    ...filters.map((f) => f.name),
    ...stamps,
    ...(paging.kind === "cursor" ? ["cursor"] : paging.kind === "none" ? [] : ["page"]),
    "per_page",
  ];
  return {
    pattern: plan.pattern,
    title,
    description: routeDescription(plan, filters),
    keywords: operationKeywords(plan),
    startPoint: Object.keys(plan.params).length === 0,
    filters: spec,
    textSearches: textSearchesOf(filters, spec),
    // Under path parameters: the start page's form that asks for them is where it is opened.
    example: opener ?? (filters[0] ? `${plan.pattern}?${filters[0].name}=…` : undefined),
    async render(match, backend) {
      // `?columns=` widens the table, as on every listing, unless the API has a filter of that name.
      const widen = filters.some((f) => f.name === "columns") ? undefined : match.uri.query.columns;
      const { columns: _widen, ...sent } = match.uri.query;
      const { query, timed } = splitTimed(widen === undefined ? match.uri.query : sent, stamps);
      const problem =
        filterProblem(filters, query) ??
        Object.entries(timed)
          .filter(([, v]) => v !== "any" && v !== "none")
          .map(([k]) => `${k} takes any or none`)[0] ??
        null;
      if (problem)
        return {
          title,
          outcome: "rejected",
          markdown: `**rejected:** ${escapeText(problem)}.\n\nReason: \`invalid_filter\` · Retryable: no (change the filter)\n\nAccepted: ${accepted.map((k) => code(k)).join(", ")}.`,
        };
      const missing = missingFilters(filters, query);
      if (missing.length) return askForFilters(plan, match, missing, title);
      const page = pageNumber(match.uri);
      const perPage = Math.min(
        Math.max(Number.parseInt(query.per_page ?? "", 10) || DEFAULT_PER_PAGE, 1),
        50,
      );
      const cursor =
        query.cursor && /^[A-Za-z0-9_\-=.~+/:]{1,400}$/.test(query.cursor) ? query.cursor : undefined;
      const upstream: Record<string, string | number | boolean> = {};
      for (const f of filters) {
        const documented = f.required ? documentedValue(f) : undefined;
        const value = query[f.name] ?? (documented !== undefined ? String(documented) : undefined);
        if (value !== undefined && value !== "") upstream[f.name] = value;
      }
      Object.assign(upstream, pagingQuery(paging, page, perPage, cursor));
      const answer = await send(ctx, backend, plan, pathValues(plan, match), upstream);
      if (isOutcome(answer)) return outcomePage(title, answer);
      if (answer.kind !== "ok") return failurePage(ctx, title, answer);
      const rows = listingRows(plan, answer.body, resource);
      if (!rows) return { title, outcome: "applied", markdown: objectMarkdown(asRow(answer.body)) };
      const kept = rows.filter((r) => Object.entries(timed).every(([k, v]) => (v === "any") === went(r[k])));
      const shown = kept.slice(0, Math.min(perPage, OPENAPI_LIMITS.maxRows));
      // Said, because the API's page was narrowed here: its other pages may hold more.
      const narrowed = Object.keys(timed).length
        ? `${Object.entries(timed)
            .map(([k, v]) => code(`${k}=${v}`))
            .join(", ")} applied here, to this page's rows (the API has no such filter).`
        : "";
      const item = plan.item ? ctx.plans.get(plan.item.operation) : undefined;
      const key = plan.item?.key ?? "id";
      const curated = columnsOf(
        shown,
        shown.some((r) => r[key] !== undefined) ? key : "id",
        plan.rows?.columns,
      );
      // What the rows hold beyond the curated columns: added when asked, else named in one line.
      const fields = rowFields(shown);
      const asked = shown.length ? askedColumns(widen, fields.all, fields.top) : { columns: [] };
      if ("problem" in asked)
        return {
          title,
          outcome: "rejected",
          markdown: `**rejected:** ${asked.problem}\n\nReason: \`invalid_columns\` · Retryable: no (change the columns)`,
        };
      const columns = [...curated, ...asked.columns.filter((c) => !curated.includes(c))];
      const hidden = fields.top.filter((f) => !columns.some((c) => c === f || c.startsWith(`${f}.`)));
      const open = item ? openLinks(plan, item, match, shown, key) : [];
      const next = nextPage(
        paging,
        { body: answer.body, link: answer.link },
        rows.length,
        page,
        perPage,
        cursor,
      );
      const base = { ...match.uri.query };
      delete base.page;
      delete base.cursor;
      const nav: string[] = [];
      if (paging.kind !== "cursor" && page > 1)
        nav.push(
          link(
            "Previous page",
            formatBrowseUri(match.uri.scheme, match.uri.segments, { ...base, page: String(page - 1) }),
          ),
        );
      if (next?.page)
        nav.push(
          link(
            "Next page",
            formatBrowseUri(match.uri.scheme, match.uri.segments, { ...base, page: String(next.page) }),
          ),
        );
      if (next?.cursor)
        nav.push(
          link(
            "Next page",
            formatBrowseUri(match.uri.scheme, match.uri.segments, { ...base, cursor: next.cursor }),
          ),
        );
      const parts = [
        narrowed,
        shown.length ? rowsTable(shown, columns) : noRowsLine(match.uri.query, page),
        openSection(open, shown, columns[0]),
        moreColumnsLine(hidden),
        `${paging.kind === "cursor" ? "" : `Page ${page} · `}${shown.length} shown${rows.length > shown.length ? ` of ${rows.length} in this answer` : ""}${nav.length ? ` · ${nav.join(" · ")}` : ""}`,
        answer.truncated
          ? "_(the API's answer was larger than Signpost reads; only its start is shown)_"
          : "",
        formsSection(ctx, plan, match),
      ];
      return {
        title,
        outcome: "applied",
        rows: shown.length,
        ...(hidden.length ? { moreColumns: hidden } : {}),
        // Each row by its id and the first of its words a person names it by.
        items: shown.map((r) => {
          const id = String(r[columns[0] ?? ""] ?? "");
          const uri = open.find((o) => o.id === id)?.uri;
          return {
            id,
            title: String(r.name ?? r.title ?? r.subject ?? r[columns[1] ?? ""] ?? ""),
            ...(uri ? { uri } : {}),
          };
        }),
        // Rows narrowed here (event times) are not the API's total.
        ...(narrowed ? {} : listingTotal(answer.body, rows.length, page, !!(next?.page || next?.cursor))),
        markdown: cut(parts.filter(Boolean).join("\n\n"), OPENAPI_LIMITS.maxPageChars + 2000),
      };
    },
    ...(asks ? { submit: (match, fields) => openWithFilters(match, filters, fields, title) } : {}),
  };
}

/** The query without the event-time keys (`shipped_at=none`), and those apart: Signpost applies them, not the API. */
function splitTimed(
  all: Record<string, string>,
  stamps: string[],
): { query: Record<string, string>; timed: Record<string, string> } {
  const query: Record<string, string> = {};
  const timed: Record<string, string> = {};
  for (const [k, v] of Object.entries(all)) (stamps.includes(k) ? timed : query)[k] = v;
  return { query, timed };
}

/** Whether a row's event time says it happened: any value but null or empty. */
function went(value: unknown): boolean {
  return value !== null && value !== undefined && value !== "";
}

/** A link per row to its detail page: the listing's own parameters, then the row's id last. */
function openLinks(
  plan: OperationPlan,
  item: OperationPlan,
  match: RouteMatch,
  rows: Record<string, unknown>[],
  key: string,
): RowPage[] {
  const routes = Object.entries(item.params);
  const last = routes[routes.length - 1]?.[0];
  if (!last) return [];
  const shared: Record<string, unknown> = {};
  for (const [route, doc] of routes.slice(0, -1)) {
    const mine = Object.entries(plan.params).find(([, d]) => d === doc)?.[0];
    if (mine) shared[route] = routeValues(match)[mine];
  }
  // What the detail page needs and this listing was given (`api-version`) goes along.
  const carried: Record<string, string> = {};
  for (const p of detailQuery(item)) {
    const value = match.uri.query[p.name];
    if (value) carried[p.name] = value;
  }
  const out: RowPage[] = [];
  for (const row of rows) {
    const id = rowKey(row, key, plan.item?.about);
    const filled = fillPattern(item.pattern, { ...shared, [last]: id });
    const uri = filled && withQuery(filled, carried);
    if (uri) out.push({ id: String(id), label: String(row.name ?? row.title ?? id).slice(0, 80), uri });
  }
  return out;
}

type RowPage = { id: string; label: string; uri: string };

/**
 * How the rows' pages are said: where each row's page is one address with the row's first cell in
 * it, that address once (rowUriPattern), the pages still links of this page; else an "Open:"
 * list, one link a row.
 */
function openSection(open: RowPage[], shown: Record<string, unknown>[], first: string | undefined): string {
  if (!open.length) return "";
  const cells = shown.map((r) => String(r[first ?? ""] ?? ""));
  const pattern =
    first && open.length === shown.length && open.every((o, i) => o.id === cells[i])
      ? rowUriPattern(
          open.map((o) => o.id),
          open.map((o) => o.uri),
          first,
        )
      : null;
  if (pattern) {
    for (const o of open) recordRowLink(o.uri);
    return `Each row's page: ${code(pattern)}`;
  }
  return `Open:\n${open.map((o, i) => `${i + 1}. ${link(o.label, o.uri)}`).join("\n")}`;
}

/** Keys under which listing answers commonly give their record count. */
const TOTAL_KEYS = ["total", "total_count", "totalCount", "count", "total_results", "totalResults"];

/**
 * How many records the listing has on every page: the count the answer gives at its top level
 * (or under `meta`/`pagination`), else the rows of a first page with no next one; none otherwise.
 */
function listingTotal(body: unknown, rows: number, page: number, more: boolean): { total?: number } {
  const top =
    body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  for (const holder of [top, top.meta, top.pagination])
    if (holder && typeof holder === "object")
      for (const key of TOTAL_KEYS) {
        const v = (holder as Record<string, unknown>)[key];
        if (typeof v === "number" && Number.isInteger(v) && v >= 0) return { total: v };
      }
  return page === 1 && !more ? { total: rows } : {};
}
