import { resourceName } from "../sdk/define-route";
import { SEGMENT } from "../sdk/parse-browse-uri";
import { type ApiOperation, pathPairs, pathSuffixAt, type SkippedOperation } from "./api-operations";
import { type Pagination, paginationOf } from "./listing-pagination";
import { type RowsShape, rowsShape } from "./listing-rows";
import { type OperationField, operationFields } from "./schema-form-fields";

/** What one operation becomes: a listing, a detail page or a write form, at a browse pattern. */
export interface OperationPlan {
  op: ApiOperation;
  kind: "listing" | "detail" | "form";
  /** The browse route pattern (`billing://invoices/{id}`). */
  pattern: string;
  /** Route parameter → the document's path parameter. */
  params: Record<string, string>;
  pagination?: Pagination;
  /** Form fields (writes). */
  fields?: OperationField[];
  /** The item GET that reads a write's resource back (PUT, PATCH, DELETE on the same path). */
  readBack?: string;
  /** Listings: the detail operation their rows open, and its parameter (a row's id is under it, else `id`). */
  item?: { operation: string; key: string; about?: string };
  /** Listings: where the response schema puts the records, and their documented columns. */
  rows?: RowsShape;
  /** A POST an admin marked as a read: its form answers with the API's answer, no approval. */
  read?: boolean;
}

// Route parameter names as the SDK's route grammar takes them; any other is renamed `p0`, `p1`….
const PARAM_NAME = /^[a-z][a-zA-Z0-9_]{0,39}$/;
/** The last segment of a write form's URI, by method. */
export const FORM_WORD: Record<string, string> = {
  post: "create",
  put: "replace",
  patch: "update",
  delete: "delete",
};

type Segment = { literal: string } | { param: string; route: string };

// The format suffix some APIs put on every path (Discourse's `/posts.json`, `/t/{id}.json`):
// the API is sent it (the document's path), a browse URI goes without it.
const FORMAT_SUFFIX = /\.(?:json|xml|ya?ml)$/i;

/** A path without format suffixes: `/posts/{id}.json` → `/posts/{id}`, how paths are compared. */
export function barePath(path: string): string {
  return path
    .split("/")
    .map((s) => s.replace(FORMAT_SUFFIX, ""))
    .join("/");
}

/** The document's name of a path's last parameter (`/t/{id}.json` → `id`). */
function lastParam(path: string): string | undefined {
  return /\{([^{}]+)\}[^/{}]*\/?$/.exec(path)?.[1];
}

/**
 * The literal segments a path's query or fragment names its operation by: each pair's value, its
 * last dotted word (`/#X-Amz-Target=SimpleWorkflowService.CountClosedWorkflowExecutions` →
 * `CountClosedWorkflowExecutions`, `/#Action=DescribeInstances` → `DescribeInstances`).
 */
function suffixLiterals(path: string): string[] {
  const at = pathSuffixAt(path);
  if (at < 0) return [];
  const pairs = pathPairs(path);
  const words = pairs.length ? pairs.map(([, v]) => v.split(".").pop() ?? v) : [path.slice(at + 1)];
  return words
    .map((w) =>
      w
        .replace(/[^A-Za-z0-9_-]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 80),
    )
    .filter((w) => SEGMENT.test(w));
}

function segmentsOf(path: string): Segment[] | string {
  const out: Segment[] = [];
  let n = 0;
  const at = pathSuffixAt(path);
  const suffix = suffixLiterals(path);
  if (at >= 0 && !suffix.length)
    return `its path's ${path[at] === "#" ? "fragment" : "query"} ${JSON.stringify(path.slice(at, at + 40))} names nothing a browse URI can hold`;
  for (const part of barePath(at < 0 ? path : path.slice(0, at))
    .split("/")
    .filter(Boolean)) {
    const param = /^\{([^{}]+)\}$/.exec(part);
    if (param) {
      const name = param[1] as string;
      out.push({ param: name, route: PARAM_NAME.test(name) ? name : `p${n}` });
      n++;
    } else if (part.includes("{"))
      return `its path segment ${JSON.stringify(part.slice(0, 40))} mixes text and a parameter`;
    else if (!SEGMENT.test(part) || part.includes(".."))
      return `its path segment ${JSON.stringify(part.slice(0, 40))} cannot be a browse URI segment`;
    else out.push({ literal: part });
  }
  for (const literal of suffix) out.push({ literal });
  return out;
}

function shapeOf(segments: Segment[]): string {
  return segments.map((s) => ("literal" in s ? s.literal : "{}")).join("/");
}

/**
 * Plans every operation: an item GET (last segment a parameter) is a detail page, any other
 * GET a listing, a write a form at the resource's path plus `create`/`replace`/`update`/
 * `delete`. Two operations that would answer at the same browse URI keep the first; the other
 * is skipped with why. Plans come out most specific first (a literal segment before a
 * parameter), which is the order routes must be matched in.
 */
export function planOperations(
  scheme: string,
  operations: ApiOperation[],
): { plans: OperationPlan[]; skipped: SkippedOperation[] } {
  const plans: OperationPlan[] = [];
  const skipped: SkippedOperation[] = [];
  const taken = new Map<string, string>();
  const keyed: Array<{ plan: OperationPlan; order: string }> = [];
  for (const op of operations) {
    const skip = (reason: string) =>
      skipped.push({ method: op.method.toUpperCase(), path: op.path, id: op.id, reason });
    const segments = segmentsOf(op.path);
    if (typeof segments === "string") {
      skip(segments);
      continue;
    }
    const last = segments[segments.length - 1];
    const kind: OperationPlan["kind"] =
      op.method !== "get" ? "form" : last && "param" in last ? "detail" : "listing";
    const all: Segment[] =
      kind === "form"
        ? [...segments, { literal: FORM_WORD[op.method] as string }]
        : // `GET /` answers at `…://root`: `…://` is the system's start page.
          segments.length === 0
          ? [{ literal: "root" }]
          : segments;
    const params: Record<string, string> = {};
    for (const s of all) if ("param" in s) params[s.route] = s.param;
    const pattern = `${scheme}://${all.map((s) => ("literal" in s ? s.literal : `{${s.route}}`)).join("/")}`;
    // The same URIs (`{id}` and `{petId}` at one place), or a pattern spelled like another
    // (`a-b` and `a/b`), would make two routes of one: the first keeps it.
    const keys = [shapeOf(all), `name:${resourceName(pattern)}`];
    const clash = keys.map((k) => taken.get(k)).find(Boolean);
    if (clash) {
      skip(`its browse URI would be the same as ${clash}'s`);
      continue;
    }
    for (const key of keys) taken.set(key, op.id);
    const plan: OperationPlan = { op, kind, pattern, params };
    if (kind === "listing" || op.method === "post") plan.rows = rowsShape(op.response);
    if (kind === "listing") plan.pagination = paginationOf(op);
    if (kind === "form") plan.fields = operationFields(op);
    keyed.push({ plan, order: all.map((s) => ("literal" in s ? "0" : "1")).join("") });
  }
  // Most specific first: `pets/create` must be tried before `pets/{id}`.
  keyed.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  for (const { plan } of keyed) plans.push(plan);
  // Writes read back through the item GET of their own path; listings open their item GET.
  const details = new Map(plans.filter((p) => p.kind === "detail").map((p) => [p.op.path, p]));
  for (const plan of plans) {
    if (plan.kind === "form" && plan.op.method !== "post") plan.readBack = details.get(plan.op.path)?.op.id;
    if (plan.kind === "listing") {
      const item = [...details.values()].find((d) => {
        const bare = barePath(d.op.path);
        return bare.slice(0, bare.lastIndexOf("/")) === barePath(plan.op.path).replace(/\/+$/, "");
      });
      const param = item && lastParam(item.op.path);
      if (item && param) {
        const about = item.op.parameters.find((p) => p.in === "path" && p.name === param)?.description;
        plan.item = { operation: item.op.id, key: param, ...(about ? { about: about.slice(0, 200) } : {}) };
      }
    }
  }
  return { plans, skipped };
}

/**
 * The reads under path parameters no row of another page opens: listings under a record
 * (`/companies/{companyId}/connections`) and detail pages no listing links to (Shinobi's
 * `/Movie/ByID/{imdbID}`), in plan order: their `?open=` number on the start page.
 */
export function openablePages(plans: Iterable<OperationPlan>): OperationPlan[] {
  const all = [...plans];
  const opened = new Set(all.flatMap((p) => (p.kind === "listing" && p.item ? [p.item.operation] : [])));
  return all.filter(
    (p) =>
      Object.keys(p.params).length > 0 &&
      (p.kind === "listing" || (p.kind === "detail" && !opened.has(p.op.id))),
  );
}

/** The link that opens a page under path parameters: a form on the system's start page asking for them. */
export function openLink(scheme: string, index: number): string {
  return `${scheme}://?open=${index}`;
}
