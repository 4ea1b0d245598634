import type { OpenAPIV3 } from "openapi-types";
import type { BrowseBackend } from "../sdk/browse-backend";
import type { Actor } from "../sdk/define-capability";
import {
  type ConnectorDefinition,
  type ConnectorSecret,
  defineConnector,
  type RecordQuery,
} from "../sdk/define-connector";
import { escapeText, link, oneLine } from "../sdk/markdown";
import type { PersonConnectionHandle } from "../sdk/person-auth";
import { recordText, searchByWords } from "../sdk/words-search";
import { apiOperations, type SkippedOperation } from "./api-operations";
import type { PlannedConnector } from "./api-request-capability";
import { credentialSchemes } from "./credential-parameters";
import { type HeaderSetting, headerSettings } from "./header-settings";
import { rowKey } from "./listing-rows";
import type { LoadedOpenApi } from "./load-openapi-document";
import { createOpenApiAdapter, type OpenApiAdapter } from "./openapi-adapter";
import type { ApiAnswer } from "./openapi-http-client";
import { openApiRoutes } from "./openapi-routes";
import { operationKeywords } from "./operation-words";
import { type OperationPlan, planOperations } from "./plan-operations";
import { listingRows } from "./read-api";
import { fillPattern } from "./route-values";
import { secretDescription, securityPlan } from "./security-schemes";
import { systemStartRoute } from "./system-start-route";

export type Role = Actor["role"];

/** What an admin decides at import: the id (and URI scheme), the API's address, who reads. */
export interface ImportSettings {
  id: string;
  title?: string;
  baseUrl: string;
  readRoles: Role[];
  /** A header for the action key where the document declares none. */
  idempotencyHeader?: string;
  /** operationIds of POSTs an admin marked as reads: read pages, no approval. */
  readOperations?: string[];
}

/** What an import made of the document: the surface, what was left out and why, the secrets. */
export interface ImportReport {
  operations: number;
  listings: number;
  details: number;
  forms: number;
  skipped: SkippedOperation[];
  /**
   * POSTs that look like reads (named get, list, search…, or documented as not changing anything):
   * suggested, never assumed. An admin marks them with `--read-operation` (or on re-import).
   */
  suggestedReads: Array<{ id: string; path: string; marked: boolean }>;
  /** The POSTs marked as reads. */
  reads: string[];
  secrets: ConnectorSecret[];
  /** Headers every operation requires, set once by an admin as connector settings (never a form field). */
  settings: HeaderSetting[];
  unsupportedSchemes: Array<{ name: string; why: string }>;
}

export type OpenApiConnector = ConnectorDefinition<OpenApiAdapter> &
  PlannedConnector & { openapi: { plans: Map<string, OperationPlan>; report: ImportReport } };

const SEARCH_PARAMS = ["q", "query", "search", "term", "keyword", "keywords", "name", "filter"];

const stem = (w: string) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w);

/**
 * The listing record search asks for a query: among the listings that take a text filter (`q`,
 * `search`, `name`…), the one whose words the query names ("mug products" → the products
 * listing), else the one the document calls a search; none when neither fits.
 */
function searchPlan(
  plans: OperationPlan[],
  words: string[],
): { plan: OperationPlan; param?: string } | undefined {
  const param = (p: OperationPlan) =>
    p.op.parameters.find((x) => x.in === "query" && SEARCH_PARAMS.includes(x.name.toLowerCase()))?.name;
  const candidates = plans.filter(
    (p) => p.kind === "listing" && Object.keys(p.params).length === 0 && param(p),
  );
  const asked = new Set(words.map(stem));
  let best: OperationPlan | undefined;
  let bestScore = 0;
  for (const p of candidates) {
    const score = operationKeywords(p).filter((k) => asked.has(stem(k))).length;
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  best ??= candidates.find((p) => /search|find/i.test(`${p.op.id} ${p.op.path}`));
  return best ? { plan: best, param: param(best) } : undefined;
}

const READ_WORDS =
  /^(get|list|search|find|query|lookup|retrieve|fetch|read|count|export|check|validate|preview|calculate|estimate|balance|describe|show)$/;
const WRITE_WORDS =
  /^(create|add|update|delete|remove|set|send|post|put|patch|cancel|refund|pay|transfer|submit|approve|reject|start|stop|run|execute|reset|revoke|invite|upload)$/;
const SAYS_READ =
  /\b(does not (modify|change|create)|read-?only|no side effects?|safe to retry|retrieves?|returns? (a |the )?(list|details))\b/i;

/** Whether a POST reads (Plaid's `/accounts/balance/get`, a search endpoint): by its words or its description. */
function looksLikeRead(plan: OperationPlan): boolean {
  const words = `${plan.op.id} ${plan.op.path}`
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.some((w) => WRITE_WORDS.test(w))) return false;
  return words.some((w) => READ_WORDS.test(w)) || SAYS_READ.test(`${plan.op.summary} ${plan.op.description}`);
}

function firstSentence(text: unknown, max: number): string {
  const s = typeof text === "string" ? (oneLine(text).split(/(?<=[.!?])\s/)[0] ?? "") : "";
  return s.slice(0, max);
}

/**
 * Generates a connector from a validated document: a listing page per collection GET, a detail
 * page per item GET (with links to the resources under it and to records its fields name), and
 * a form per write operation that starts the generic `api_request` action for a person to
 * approve. Secrets are the document's security schemes by name; operations that only an
 * unsupported scheme could authorize are left out and reported. Nothing from the document is
 * evaluated: its strings become escaped text, index words and validated URI segments only.
 */
export function generateOpenApiConnector(loaded: LoadedOpenApi, settings: ImportSettings): OpenApiConnector {
  const api = loaded.api as OpenAPIV3.Document;
  const security = securityPlan(api, settings.baseUrl);
  const extracted = apiOperations(api);
  const skipped: SkippedOperation[] = [...extracted.skipped];
  const fixedHeaders = headerSettings(credentialSchemes(extracted.operations, security.supported));
  const servable = fixedHeaders.operations.filter((op) => {
    const ok =
      op.security.length === 0 ||
      op.security.some((alt) => alt.every((name) => security.supported.has(name)));
    if (!ok)
      skipped.push({
        method: op.method.toUpperCase(),
        path: op.path,
        id: op.id,
        reason: `only ${op.security.map((a) => a.join(" + ")).join(" or ")} authorize it, which Signpost cannot apply`,
      });
    return ok;
  });
  const planned = planOperations(settings.id, servable);
  skipped.push(...planned.skipped);
  const reads = new Set(settings.readOperations ?? []);
  for (const p of planned.plans)
    if (p.kind === "form" && p.op.method === "post" && reads.has(p.op.id)) p.read = true;
  const plans = new Map(planned.plans.map((p) => [p.op.id, p]));
  const used = new Set(planned.plans.flatMap((p) => p.op.security.flat()));
  const secrets: ConnectorSecret[] = [...security.supported.values()]
    // A per-person scheme's secret is the OAuth client's, which defineConnector declares.
    .filter((s) => used.has(s.scheme) && s.kind !== "per_person")
    .map((s) => ({ name: s.name, description: secretDescription(s), optional: true }));
  // The first authorization-code scheme an operation uses: the connector acts as each person.
  const personal = [...security.supported.values()].find(
    (s): s is Extract<typeof s, { kind: "per_person" }> => s.kind === "per_person" && used.has(s.scheme),
  );
  const title = oneLine(settings.title ?? api.info?.title ?? settings.id).slice(0, 60) || settings.id;
  const report: ImportReport = {
    operations: extracted.operations.length + extracted.skipped.length,
    listings: planned.plans.filter((p) => p.kind === "listing").length,
    details: planned.plans.filter((p) => p.kind === "detail").length,
    forms: planned.plans.filter((p) => p.kind === "form").length,
    skipped,
    suggestedReads: planned.plans
      .filter((p) => p.kind === "form" && p.op.method === "post" && looksLikeRead(p))
      .slice(0, 100)
      .map((p) => ({ id: p.op.id, path: p.op.path, marked: reads.has(p.op.id) })),
    reads: planned.plans.filter((p) => p.read).map((p) => p.op.id),
    secrets,
    settings: fixedHeaders.settings,
    unsupportedSchemes: [...security.unsupported.entries()].map(([name, why]) => ({ name, why })),
  };
  const routeContext = { connectorId: settings.id, scheme: settings.id, title, plans };
  const probe = planned.plans.find(
    (p) =>
      p.kind === "listing" && Object.keys(p.params).length === 0 && !p.op.parameters.some((x) => x.required),
  );
  const adapterFor = (options: {
    baseUrl: string;
    secrets: Record<string, string>;
    settings?: Record<string, string>;
    person?: PersonConnectionHandle;
  }) =>
    createOpenApiAdapter({
      connectorId: settings.id,
      title,
      baseUrl: options.baseUrl,
      secrets: options.secrets,
      headerSettings: fixedHeaders.settings,
      settings: options.settings ?? {},
      person: options.person,
      schemes: security.supported,
      plans,
      idempotencyHeader: settings.idempotencyHeader,
    });

  async function searchRecords({ words, query }: RecordQuery, backend: BrowseBackend): Promise<string[]> {
    const search = searchPlan(planned.plans, words);
    if (!search) return [];
    // The words that name the listing are not what the records hold ("mug products" → `mug`).
    const named = new Set(operationKeywords(search.plan).map(stem));
    const asked = words.filter((w) => !named.has(stem(w)));
    const ask = async (text: string) => {
      const answer = await backend.withAdapter<OpenApiAdapter, ApiAnswer>(settings.id, (adapter) =>
        adapter.send({
          operation: search.plan.op,
          path: {},
          query: search.param ? { [search.param]: text.slice(0, 100) } : {},
          headers: {},
        }),
      );
      if (!answer || typeof answer !== "object" || (answer as ApiAnswer).kind !== "ok") return null;
      return listingRows(search.plan, (answer as Extract<ApiAnswer, { kind: "ok" }>).body) ?? [];
    };
    // Without a text parameter the listing is read as it is; with one, the words are matched as
    // searchByWords says (a system's filter is often one substring: "blue cap m" finds nothing).
    const rows =
      search.param && asked.length
        ? await searchByWords(asked, ask, (row) => recordText(row))
        : ((await ask(asked.join(" ") || query)) ?? []);
    const item = search.plan.item ? plans.get(search.plan.item.operation) : undefined;
    return rows.slice(0, 5).map((row) => {
      const id = rowKey(row, search.plan.item?.key ?? "id", search.plan.item?.about);
      const label = `${title}: ${String(row.name ?? row.title ?? id ?? "record")}`.slice(0, 80);
      const uri = item ? fillPattern(item.pattern, { [Object.keys(item.params).pop() ?? ""]: id }) : null;
      return `- ${uri ? link(label, uri) : escapeText(label)}`;
    });
  }

  const description = escapeText(
    firstSentence(api.info?.description, 160) ||
      `${title}, imported from its OpenAPI document (${report.listings} listings, ${report.forms} forms)`,
  );
  const definition = defineConnector<OpenApiAdapter>({
    id: settings.id,
    title,
    scheme: settings.id,
    description,
    secrets,
    settings: fixedHeaders.settings.map(({ name, description }) => ({ name, description })),
    ...(personal
      ? {
          personAuth: {
            kind: "oauth_authorization_code" as const,
            authorizationUrl: personal.authorizationUrl,
            tokenUrl: personal.tokenUrl,
            scopes: personal.scopes,
          },
        }
      : {}),
    createAdapter: adapterFor,
    healthPath: "/",
    async checkConnection(options, signal) {
      if (!probe) return { ok: false, status: 0 };
      const adapter = adapterFor(options);
      if (signal.aborted) return { ok: false, status: 0 };
      const answer = await adapter.send({ operation: probe.op, path: {}, query: {}, headers: {} });
      return answer.kind === "ok"
        ? { ok: true, status: answer.status }
        : {
            ok: false,
            status: answer.kind === "error" || answer.kind === "unavailable" ? (answer.status ?? 0) : 0,
          };
    },
    capabilities: [],
    entities: [],
    routes: [systemStartRoute(routeContext, description), ...openApiRoutes(routeContext)],
    defaultAccess: { read: settings.readRoles, start: [] },
    searchRecords,
    // The system's own search looks through the listing it asks; its rows are this route's.
    searchedListings: ({ words }) => {
      const search = searchPlan(planned.plans, words);
      return search ? [search.plan.pattern] : [];
    },
  });
  return Object.assign(definition, { openapi: { plans, report } });
}
