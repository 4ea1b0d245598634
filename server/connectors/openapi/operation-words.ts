import { escapeText, shownPrefix } from "../sdk/markdown";
import type { ApiParameter } from "./api-operations";
import type { OperationPlan } from "./plan-operations";

/** Words of an identifier: `listInvoices` / `list_invoices` / `list-invoices` → list, invoices. */
function identifierWords(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1);
}

const VERSION = /^v\d+(\.\d+)*$/i;

/** The path's literal words (`/v1/billing/invoices/{id}` → billing, invoices), versions aside. */
function pathWords(path: string): string[] {
  return path
    .split("/")
    .filter((s) => s && !s.startsWith("{") && !VERSION.test(s))
    .flatMap(identifierWords);
}

/**
 * What search matches a generated route on: the document's tags, operationId, summary and path
 * words. They are data for a word index (never markdown, never a pattern), bounded in number.
 */
export function operationKeywords(plan: OperationPlan): string[] {
  const { op } = plan;
  const words = new Set<string>([
    ...op.tags.flatMap((t) => [t.toLowerCase(), ...identifierWords(t)]),
    ...identifierWords(op.id),
    ...pathWords(op.path),
    ...identifierWords(op.summary).filter((w) => w.length > 2),
  ]);
  if (plan.kind === "form") words.add(plan.op.method === "delete" ? "delete" : "change");
  return [...words].slice(0, 40);
}

/** A page's title: the document's summary, else what it is (`List invoices`, `POST /invoices`). */
export function operationTitle(plan: OperationPlan): string {
  const { op } = plan;
  if (op.summary) return op.summary.replace(/\.$/, "").slice(0, 80);
  const noun = pathWords(op.path).slice(-1)[0] ?? "resource";
  if (plan.kind === "listing") return `List ${noun}`;
  if (plan.kind === "detail") return `One of ${noun}`;
  return `${op.method.toUpperCase()} ${op.path}`.slice(0, 80);
}

/**
 * The route's one line for search results and the start page (shown as markdown there, so the
 * document's text is escaped here), with the filters a listing takes.
 */
export function routeDescription(plan: OperationPlan, filters: ApiParameter[]): string {
  const { op } = plan;
  const first = (op.description || op.summary).split(/(?<=[.!?])\s/)[0] ?? "";
  const what =
    plan.kind === "form"
      ? `${op.method.toUpperCase()} ${op.path}, after a person's approval`
      : `${plan.kind === "listing" ? "listing" : "detail"}: GET ${op.path}`;
  const filterText = filters.length
    ? `; filters: ${filters
        .slice(0, 8)
        .map((f) => f.name)
        .join(", ")}`
    : "";
  return escapeText(`${first ? `${shownPrefix(first, 140, "")} — ` : ""}${what}${filterText}`);
}
