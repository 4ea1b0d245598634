import { actionPage } from "../sdk/action-page";
import type { BackendOutcome, BrowseBackend } from "../sdk/browse-backend";
import type { PageBody, RouteDefinition, RouteMatch } from "../sdk/define-route";
import { code, escapeText, formBlock, link, shownPrefix } from "../sdk/markdown";
import { encodeSegment, formatBrowseUri, segmentValue } from "../sdk/parse-browse-uri";
import { isOutcome, outcomePage, pageNumber } from "../sdk/route-pages";
import type { ApiParameter } from "./api-operations";
import { callFor } from "./api-request-capability";
import { API_REQUEST } from "./api-request-names";
import { DEFAULT_PER_PAGE, nextPage, PAGING_KEYS, pagingParams, pagingQuery } from "./listing-pagination";
import { rowKey, rowsAt } from "./listing-rows";
import type { OpenApiAdapter } from "./openapi-adapter";
import type { ApiAnswer } from "./openapi-http-client";
import { OPENAPI_LIMITS } from "./openapi-limits";
import { operationKeywords, operationTitle, routeDescription } from "./operation-words";
import { barePath, type OperationPlan, openablePages, openLink } from "./plan-operations";
import { columnsOf, cut, objectMarkdown, rowsOf, rowsTable } from "./render-api-response";
import { byFieldName, checkFields, coerceFields, formFieldName, formFields } from "./schema-form-fields";

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
function routeValues(match: RouteMatch): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [route, segment] of Object.entries(match.params)) out[route] = segmentValue(segment);
  return out;
}

/** The document's path parameters from a route match (route names → document names), decoded. */
function pathValues(plan: OperationPlan, match: RouteMatch): Record<string, string> {
  const values = routeValues(match);
  const out: Record<string, string> = {};
  for (const [route, doc] of Object.entries(plan.params))
    if (values[route] !== undefined) out[doc] = values[route] as string;
  return out;
}

/** An API error body's own explanation, short and inert. */
function apiMessage(body: unknown): string {
  if (typeof body === "string") return shownPrefix(body, 200, "");
  const b = (body ?? {}) as Record<string, unknown>;
  const inner = (b.error && typeof b.error === "object" ? b.error : b) as Record<string, unknown>;
  const text = [inner.message, inner.detail, inner.title, inner.error, inner.code].find(
    (v) => typeof v === "string",
  );
  return typeof text === "string" ? shownPrefix(text, 200, "") : "";
}

/** A failed read as a page with its typed outcome. */
function failurePage(ctx: RouteContext, title: string, answer: Exclude<ApiAnswer, { kind: "ok" }>): PageBody {
  const config = link(`${ctx.title} settings`, `config://${ctx.connectorId}`);
  switch (answer.kind) {
    case "refused":
      return {
        title,
        outcome: "rejected",
        markdown: `**rejected:** ${escapeText(answer.message)}\n\nReason: \`not_sent\` · Retryable: no\n\n${config}`,
      };
    case "unavailable":
    case "unknown":
      return {
        title,
        outcome: "temporarily_unavailable",
        markdown: `**temporarily_unavailable:** ${escapeText(answer.message)}\n\nReason: \`api_unavailable\` · Retryable: yes`,
      };
    case "error": {
      if (answer.status === 404)
        return {
          title: "Not found",
          outcome: "not_found",
          markdown: `${escapeText(ctx.title)} has nothing here (HTTP 404).`,
        };
      const said = apiMessage(answer.body);
      const auth = answer.status === 401 || answer.status === 403;
      return {
        title,
        outcome: "rejected",
        markdown: [
          `**rejected:** the API answered HTTP ${answer.status}${said ? `: ${escapeText(said)}` : ""}.`,
          `Reason: \`${auth ? "api_credentials" : "api_refused"}\` · Retryable: no`,
          auth ? `An admin checks the connector's secret: ${config}` : "",
        ]
          .filter(Boolean)
          .join("\n\n"),
      };
    }
  }
}

async function send(
  ctx: RouteContext,
  backend: BrowseBackend,
  plan: OperationPlan,
  path: Record<string, string>,
  query: Record<string, string | number | boolean>,
): Promise<ApiAnswer | BackendOutcome> {
  const headers: Record<string, string> = {};
  const sent = { ...query };
  for (const p of plan.op.parameters) {
    if (!p.required || (p.in !== "header" && p.in !== "query")) continue;
    const value = documentedValue(p);
    if (value === undefined) continue;
    if (p.in === "header") headers[p.name] = String(value);
    else sent[p.name] ??= String(value);
  }
  return backend.withAdapter<OpenApiAdapter, ApiAnswer>(ctx.connectorId, (adapter) =>
    adapter.send({ operation: plan.op, path, query: sent, headers }),
  );
}

/**
 * The value the document itself gives a required parameter that a read needs and nobody chose
 * (Azure's `api-version`, a fixed `Accept`): its default, else its only enum value, else its
 * documented example. A parameter with none of these is asked for.
 */
function documentedValue(p: ApiParameter): unknown {
  if (p.schema.default !== undefined) return p.schema.default;
  if (p.schema.enum?.length === 1) return p.schema.enum[0];
  return typeof p.example === "object" ? undefined : p.example;
}

/** The filters a listing takes: its documented query parameters, paging ones aside. */
function filtersOf(plan: OperationPlan): ApiParameter[] {
  const paging = new Set(plan.pagination ? pagingParams(plan.pagination) : []);
  return plan.op.parameters.filter(
    (p) =>
      p.in === "query" &&
      !paging.has(p.name) &&
      !(PAGING_KEYS as readonly string[]).includes(p.name) &&
      /^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/.test(p.name),
  );
}

function filterProblem(filters: ApiParameter[], query: Record<string, string>): string | null {
  const byName = new Map(filters.map((f) => [f.name, f]));
  for (const [key, value] of Object.entries(query)) {
    if ((PAGING_KEYS as readonly string[]).includes(key)) continue;
    const filter = byName.get(key);
    if (!filter) return `${JSON.stringify(key.slice(0, 40))} is not a filter of this listing`;
    if (value.length > 200) return `${key} is too long`;
    const t = Array.isArray(filter.schema.type) ? filter.schema.type[0] : filter.schema.type;
    if (filter.schema.enum && !filter.schema.enum.map(String).includes(value))
      return `${key} must be one of ${filter.schema.enum
        .slice(0, 20)
        .map((v) => String(v))
        .join(", ")}`;
    if ((t === "integer" || t === "number") && !/^-?\d+(\.\d+)?$/.test(value))
      return `${key} must be a number`;
    if (t === "boolean" && value !== "true" && value !== "false") return `${key} must be true or false`;
  }
  return null;
}

/** Required filters a read cannot fill itself (no default, single enum value or scalar example) and nobody gave. */
function missingFilters(filters: ApiParameter[], query: Record<string, string>): ApiParameter[] {
  return filters.filter((f) => f.required && !query[f.name] && documentedValue(f) === undefined);
}

/**
 * A listing that needs a filter nobody gave (Shutterstock's `GET /v2/audio?id=…`: records by
 * their ids) asks for it, as a listing under a record asks for the record: a form whose answer
 * is the listing's link. The document's example ids are never sent in the agent's name.
 */
function askForFilters(
  plan: OperationPlan,
  match: RouteMatch,
  missing: ApiParameter[],
  title: string,
): PageBody {
  const fields = missing.map((f) => ({
    name: formFieldName(f.name),
    type: Array.isArray(f.schema.type) ? String(f.schema.type[0]) : (f.schema.type ?? "string"),
    required: true,
    description: (f.description ?? `the ${f.name} this listing needs`).slice(0, 200),
  }));
  return {
    title,
    outcome: "input_required",
    markdown: [
      `${escapeText(title)} needs ${missing.map((f) => code(f.name)).join(", ")} before it reads anything (GET ${escapeText(plan.op.path)}): give ${missing.length > 1 ? "them" : "it"}, and the answer links to the listing. Nothing is sent by this form.`,
      formBlock(match.uri.uri, fields),
    ].join("\n\n"),
  };
}

/** The answer to a listing's filter form: the listing's link with the filters given, or what is missing. */
async function openWithFilters(
  match: RouteMatch,
  filters: ApiParameter[],
  fields: Record<string, unknown>,
  title: string,
): Promise<PageBody> {
  const query = { ...match.uri.query };
  for (const f of filters) {
    const value = fields[formFieldName(f.name)];
    const text = Array.isArray(value) ? value.map(String).join(",") : value;
    if (typeof text === "string" || typeof text === "number" || typeof text === "boolean")
      if (String(text) !== "") query[f.name] = String(text);
  }
  const problem = filterProblem(filters, query);
  const missing = missingFilters(filters, query);
  if (problem || missing.length)
    return {
      title,
      outcome: "rejected",
      markdown: `**rejected:** ${escapeText(problem ?? `${missing.map((f) => formFieldName(f.name)).join(", ")} required`)}.\n\n${link("Try again", match.uri.uri)}`,
    };
  return {
    title,
    outcome: "applied",
    markdown: `Open it: ${link(title, formatBrowseUri(match.uri.scheme, match.uri.segments, query))}`,
  };
}

function listingRoute(ctx: RouteContext, plan: OperationPlan, opener?: string): RouteDefinition {
  const filters = filtersOf(plan);
  const asks = missingFilters(filters, {}).length > 0;
  const paging = plan.pagination ?? { kind: "none" as const };
  const title = operationTitle(plan);
  const resource =
    plan.op.path
      .split("/")
      .filter((s) => s && !s.startsWith("{"))
      .pop() ?? "";
  const accepted = [
    ...filters.map((f) => f.name),
    ...(paging.kind === "cursor" ? ["cursor"] : paging.kind === "none" ? [] : ["page"]),
    "per_page",
  ];
  return {
    pattern: plan.pattern,
    title,
    description: routeDescription(plan, filters),
    keywords: operationKeywords(plan),
    startPoint: Object.keys(plan.params).length === 0,
    // Under path parameters: the start page's form that asks for them is where it is opened.
    example: opener ?? (filters[0] ? `${plan.pattern}?${filters[0].name}=…` : undefined),
    async render(match, backend) {
      const query = match.uri.query;
      const problem = filterProblem(filters, query);
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
      const shown = rows.slice(0, Math.min(perPage, OPENAPI_LIMITS.maxRows));
      const item = plan.item ? ctx.plans.get(plan.item.operation) : undefined;
      const key = plan.item?.key ?? "id";
      const columns = columnsOf(
        shown,
        shown.some((r) => r[key] !== undefined) ? key : "id",
        plan.rows?.columns,
      );
      const open = item ? openLinks(plan, item, match, shown, key) : [];
      const next = nextPage(
        paging,
        { body: answer.body, link: answer.link },
        rows.length,
        page,
        perPage,
        cursor,
      );
      const base = { ...query };
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
        rowsTable(shown, columns),
        open.length ? `Open:\n${open.join("\n")}` : "",
        `${paging.kind === "cursor" ? "" : `Page ${page} · `}${shown.length} shown${rows.length > shown.length ? ` of ${rows.length} in this answer` : ""}${nav.length ? ` · ${nav.join(" · ")}` : ""}`,
        answer.truncated
          ? "_(the API's answer was larger than Signpost reads; only its start is shown)_"
          : "",
        formsSection(ctx, plan, match),
      ];
      return {
        title,
        outcome: "applied",
        markdown: cut(parts.filter(Boolean).join("\n\n"), OPENAPI_LIMITS.maxPageChars + 2000),
      };
    },
    ...(asks ? { submit: (match, fields) => openWithFilters(match, filters, fields, title) } : {}),
  };
}

/** A link per row to its detail page: the listing's own parameters, then the row's id last. */
function openLinks(
  plan: OperationPlan,
  item: OperationPlan,
  match: RouteMatch,
  rows: Record<string, unknown>[],
  key: string,
): string[] {
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
  const out: string[] = [];
  rows.forEach((row, i) => {
    const id = rowKey(row, key, plan.item?.about);
    const filled = fillPattern(item.pattern, { ...shared, [last]: id });
    const uri = filled && withQuery(filled, carried);
    const label = row.name ?? row.title ?? id;
    if (uri) out.push(`${i + 1}. ${link(String(label).slice(0, 80), uri)}`);
  });
  return out;
}

/** A listing's records: where its response schema puts them, else wherever the answer has them. */
export function listingRows(
  plan: OperationPlan,
  body: unknown,
  resource = "",
): Record<string, unknown>[] | null {
  return (plan.rows && rowsAt(body, plan.rows.at)) ?? rowsOf(body, resource);
}

function asRow(body: unknown): Record<string, unknown> {
  return body && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : { value: body };
}

/** Links to the pages under this one (sub-resources, forms) with this page's parameters filled in. */
function relatedLinks(
  ctx: RouteContext,
  plan: OperationPlan,
  match: RouteMatch,
  kinds: OperationPlan["kind"][],
): string[] {
  const prefix = barePath(plan.op.path).replace(/\/+$/, "");
  const out: string[] = [];
  for (const other of ctx.plans.values()) {
    if (other === plan || !kinds.includes(other.kind)) continue;
    const same = barePath(other.op.path) === prefix;
    const below = barePath(other.op.path).startsWith(`${prefix}/`);
    if (!same && !below) continue;
    // Only pages whose every parameter this page knows.
    const values: Record<string, string> = {};
    let complete = true;
    for (const [route, doc] of Object.entries(other.params)) {
      const mine = Object.entries(plan.params).find(([, d]) => d === doc)?.[0];
      const value = mine ? routeValues(match)[mine] : undefined;
      if (value !== undefined) values[route] = value;
      else complete = false;
    }
    if (!complete) continue;
    const uri = fillPattern(other.pattern, values);
    if (uri) out.push(`- ${link(operationTitle(other), uri)}`);
    if (out.length >= 12) break;
  }
  return out;
}

function formsSection(ctx: RouteContext, plan: OperationPlan, match: RouteMatch): string {
  const forms = relatedLinks(ctx, plan, match, ["form"]);
  return forms.length ? `## Actions (each waits for a person's approval)\n\n${forms.join("\n")}` : "";
}

/** Links from fields that name another resource by id (`customer_id` → that customer's page). */
function referenceLinks(ctx: RouteContext, body: Record<string, unknown>): string[] {
  const details = [...ctx.plans.values()].filter(
    (p) => p.kind === "detail" && Object.keys(p.params).length === 1,
  );
  const out: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const m = /^(.+?)(?:_id|Id)$/.exec(key);
    if (!m || (typeof value !== "string" && typeof value !== "number")) continue;
    const word = (m[1] as string).toLowerCase();
    const target = details.find((d) => {
      const segs = d.op.path.split("/").filter(Boolean);
      const noun = (segs[segs.length - 2] ?? "").toLowerCase();
      return noun === word || noun === `${word}s` || noun === `${word}es`;
    });
    if (!target) continue;
    const uri = fillPattern(target.pattern, { [Object.keys(target.params)[0] as string]: value });
    if (uri) out.push(`- ${link(`${key} ${String(value)}`, uri)}`);
    if (out.length >= 8) break;
  }
  return out;
}

/**
 * The required query parameters of a detail page that the document gives no value for (Azure
 * Graph's `api-version` with no default or example): taken from the page's URI, asked for when
 * missing, carried on by the listing's row links.
 */
function detailQuery(plan: OperationPlan): ApiParameter[] {
  return filtersOf(plan).filter((p) => p.required && documentedValue(p) === undefined);
}

/** A browse URI with query values added (`…/apps/7` + api-version → `…/apps/7?api-version=1.6`). */
function withQuery(uri: string, query: Record<string, string>): string {
  if (!Object.keys(query).length) return uri;
  const at = uri.indexOf("://");
  return formatBrowseUri(uri.slice(0, at), uri.slice(at + 3).split("/"), query);
}

function detailRoute(ctx: RouteContext, plan: OperationPlan, opener?: string): RouteDefinition {
  const title = operationTitle(plan);
  const needs = detailQuery(plan);
  return {
    pattern: plan.pattern,
    title,
    // No listing links to it: the start page's form that asks for its parameters opens it.
    ...(opener ? { example: opener } : {}),
    description: routeDescription(plan, []),
    keywords: operationKeywords(plan),
    ...(needs.length ? { submit: (match, fields) => openWithFilters(match, needs, fields, title) } : {}),
    async render(match, backend) {
      const query = match.uri.query;
      const problem = filterProblem(needs, query);
      if (problem) return { title, outcome: "rejected", markdown: `**rejected:** ${escapeText(problem)}.` };
      const missing = missingFilters(needs, query);
      if (missing.length) return askForFilters(plan, match, missing, title);
      const given: Record<string, string> = {};
      for (const p of needs) given[p.name] = query[p.name] as string;
      const answer = await send(ctx, backend, plan, pathValues(plan, match), given);
      if (isOutcome(answer)) return outcomePage(title, answer);
      if (answer.kind !== "ok") return failurePage(ctx, title, answer);
      const body = asRow(answer.body);
      const related = [
        ...relatedLinks(ctx, plan, match, ["listing", "detail"]),
        ...referenceLinks(ctx, body),
      ];
      const parts = [
        objectMarkdown(body),
        related.length ? `## Related\n\n${related.join("\n")}` : "",
        formsSection(ctx, plan, match),
      ];
      return {
        title: `${title} ${Object.values(routeValues(match)).join(" ")}`.trim(),
        outcome: "applied",
        markdown: parts.filter(Boolean).join("\n\n"),
      };
    },
  };
}

function formRoute(ctx: RouteContext, plan: OperationPlan): RouteDefinition {
  const title = operationTitle(plan);
  const fields = plan.fields ?? [];
  const method = plan.op.method.toUpperCase();
  const intro = plan.read
    ? `A read: submitting sends \`${method} ${escapeText(plan.op.path)}\` to ${escapeText(ctx.title)} at once and shows its answer (an admin marked this operation as one that changes nothing).`
    : `Submitting prepares \`${method} ${escapeText(plan.op.path)}\` on ${escapeText(ctx.title)} for a person's approval: nothing is sent to the API before a person approves it.`;
  const page = (
    match: RouteMatch,
    values: Record<string, unknown>,
    problems: Array<{ field: string; message: string }> = [],
  ): PageBody => ({
    title,
    outcome: problems.length ? "rejected" : "input_required",
    markdown: [
      intro,
      problems.length
        ? `## Problems\n\n${problems.map((p) => `- ${code(p.field)}: ${escapeText(p.message)}`).join("\n")}`
        : "",
      plan.op.description ? escapeText(shownPrefix(plan.op.description, 300, "")) : "",
      formBlock(match.uri.uri, formFields(fields, values)),
    ]
      .filter(Boolean)
      .join("\n\n"),
  });
  return {
    pattern: plan.pattern,
    title,
    description: routeDescription(plan, []),
    keywords: operationKeywords(plan),
    async render(match) {
      return page(match, byFieldName(fields, "path", pathValues(plan, match)));
    },
    async submit(match, submitted, backend) {
      // The URI names the resource: its path parameters win over any field of the same name.
      // Coerced after the URI's values are in: `…/sites/1/delete` sends the integer 1.
      const values = coerceFields(fields, {
        ...submitted,
        ...byFieldName(fields, "path", pathValues(plan, match)),
      });
      // Text for a field with a fixed set ("Urgent") goes on to the action: the engine reads it as
      // words for one of the choices (and refuses it there when it names none).
      const words = (name: string) =>
        !plan.read && typeof values[name] === "string" && !!fields.find((f) => f.name === name)?.schema.enum;
      const problems = checkFields(fields, values).filter((p) => !(p.code === "invalid" && words(p.field)));
      if (problems.length) return page(match, values, problems);
      if (plan.read) {
        const call = callFor(plan, values);
        const answer = await backend.withAdapter<OpenApiAdapter, ApiAnswer>(ctx.connectorId, (adapter) =>
          adapter.send(call),
        );
        if (isOutcome(answer)) return outcomePage(title, answer);
        if (answer.kind !== "ok") return failurePage(ctx, title, answer);
        const rows = listingRows(plan, answer.body);
        return {
          title,
          outcome: "applied",
          markdown: cut(
            rows
              ? rowsTable(rows.slice(0, OPENAPI_LIMITS.maxRows), columnsOf(rows))
              : objectMarkdown(asRow(answer.body)),
            OPENAPI_LIMITS.maxPageChars,
          ),
        };
      }
      const outcome = await backend.startAction({
        capability: API_REQUEST,
        patch: { target: formatBrowseUri(match.uri.scheme, match.uri.segments), values },
      });
      if (outcome.outcome === "rejected" && !outcome.action_id)
        return outcomePage(title, outcome, { label: title, uri: match.uri.uri });
      const shown = actionPage(outcome, backend);
      return {
        ...shown,
        title: `${title}: ${shown.title}`,
        actionId: outcome.action_id,
        capability: API_REQUEST,
      };
    },
  };
}

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
