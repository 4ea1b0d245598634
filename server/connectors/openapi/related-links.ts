import type { RouteMatch } from "../sdk/define-route";
import { fieldsKey, formFieldsLine } from "../sdk/form-fields-line";
import { link } from "../sdk/markdown";
import { operationLineFields } from "./operation-line-fields";
import { operationTitle } from "./operation-words";
import { barePath, type OperationPlan } from "./plan-operations";
import { fillPattern, type RouteContext, routeValues } from "./route-values";

/** Links to the pages under this one (sub-resources, forms) with this page's parameters filled in. */
export function relatedLinks(
  ctx: RouteContext,
  plan: OperationPlan,
  match: RouteMatch,
  kinds: OperationPlan["kind"][],
  /** Said after a page's link (a form's fields). */
  after: (other: OperationPlan) => string = () => "",
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
    if (uri) out.push(`- ${link(operationTitle(other), uri)}${after(other)}`);
    if (out.length >= 12) break;
  }
  return out;
}

export function formsSection(ctx: RouteContext, plan: OperationPlan, match: RouteMatch): string {
  // Each form with its fields: submitted from this page, not opened first to learn them.
  const forms = relatedLinks(
    ctx,
    plan,
    match,
    ["form"],
    (form) => ` — ${formFieldsLine(operationLineFields(form))}`,
  );
  return forms.length
    ? `## Actions (each waits for a person's approval)\n\n${forms.join("\n")}\n${fieldsKey(false)}`
    : "";
}

/** Links from fields that name another resource by id (`customer_id` → that customer's page). */
export function referenceLinks(ctx: RouteContext, body: Record<string, unknown>): string[] {
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
