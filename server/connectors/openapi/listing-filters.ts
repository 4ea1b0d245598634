import type { FilterSpec, PageBody, RouteMatch } from "../sdk/define-route";
import { code, escapeText, formBlock, link } from "../sdk/markdown";
import { formatBrowseUri } from "../sdk/parse-browse-uri";
import type { ApiParameter } from "./api-operations";
import { PAGING_KEYS, pagingParams } from "./listing-pagination";
import type { OperationPlan } from "./plan-operations";
import { documentedValue } from "./read-api";
import { formFieldName } from "./schema-form-fields";

/** The filters a listing takes: its documented query parameters, paging ones aside. */
export function filtersOf(plan: OperationPlan): ApiParameter[] {
  const paging = new Set(plan.pagination ? pagingParams(plan.pagination) : []);
  return plan.op.parameters.filter(
    (p) =>
      p.in === "query" &&
      !paging.has(p.name) &&
      !(PAGING_KEYS as readonly string[]).includes(p.name) &&
      /^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/.test(p.name),
  );
}

/** Names an API gives its free-text search parameter (`?q=`, `?search=`, `?query=`…). */
const FREE_TEXT = /^(q|query|search|keywords?|term|text|search_?term|search_?query)$/i;

/** A parameter that takes one email address (`requester_email`, `userEmail`, `format: email`). */
const EMAIL_NAME = /(^|[_.-])email$|[a-z]Email$|^email$/i;

/**
 * The filters a search's words can fill (the route's `filters`): an enum's string values, a
 * string parameter named like a text search as free text, and one that takes an email address
 * as that (an address the words hold sets it). The rest need values words cannot name.
 */
export function searchFilters(filters: ApiParameter[]): FilterSpec {
  const spec: Record<string, readonly string[] | "free text" | "email address"> = {};
  for (const f of filters) {
    const t = Array.isArray(f.schema.type) ? f.schema.type[0] : f.schema.type;
    const values = (f.schema.enum ?? []).filter((v): v is string => typeof v === "string");
    const text = t === undefined || t === "string";
    if (values.length) spec[f.name] = values;
    else if (text && FREE_TEXT.test(f.name)) spec[f.name] = "free text";
    else if (text && (f.schema.format === "email" || EMAIL_NAME.test(f.name))) spec[f.name] = "email address";
  }
  return spec;
}

/**
 * What an imported listing's free-text filter searches, as its document says it (the parameter's
 * description, cut) or, with none, as the API's own parameter: a search that finds nothing says
 * it, so the model reads "none" as the API's answer rather than guessing at other fields.
 */
export function textSearchesOf(filters: ApiParameter[], spec: FilterSpec): string | undefined {
  const f = filters.find((p) => spec[p.name] === "free text");
  if (!f) return undefined;
  const said = (f.description ?? "").replace(/\s+/g, " ").trim();
  const cut = said.length > 80 ? `${said.slice(0, 79)}…` : said;
  return `the API's own ${f.name} parameter${cut ? `: ${cut}` : ""}`;
}

export function filterProblem(filters: ApiParameter[], query: Record<string, string>): string | null {
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
export function missingFilters(filters: ApiParameter[], query: Record<string, string>): ApiParameter[] {
  return filters.filter((f) => f.required && !query[f.name] && documentedValue(f) === undefined);
}

/**
 * A listing that needs a filter nobody gave (Shutterstock's `GET /v2/audio?id=…`: records by
 * their ids) asks for it, as a listing under a record asks for the record: a form whose answer
 * is the listing's link. The document's example ids are never sent in the agent's name.
 */
export function askForFilters(
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
export async function openWithFilters(
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

/**
 * The required query parameters of a detail page that the document gives no value for (Azure
 * Graph's `api-version` with no default or example): taken from the page's URI, asked for when
 * missing, carried on by the listing's row links.
 */
export function detailQuery(plan: OperationPlan): ApiParameter[] {
  return filtersOf(plan).filter((p) => p.required && documentedValue(p) === undefined);
}
