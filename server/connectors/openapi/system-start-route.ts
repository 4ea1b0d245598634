import type { RouteDefinition } from "../sdk/define-route";
import { escapeText, formBlock, link, shownPrefix } from "../sdk/markdown";
import type { ApiParameter } from "./api-operations";
import { operationTitle } from "./operation-words";
import { type OperationPlan, openablePages, openLink } from "./plan-operations";
import { fillPattern, type RouteContext } from "./route-values";
import { formFieldName } from "./schema-form-fields";

/** Entry points one start page lists, per kind. */
const MAX_ENTRIES = 40;

function parameterOf(plan: OperationPlan, route: string): ApiParameter | undefined {
  const doc = plan.params[route];
  return plan.op.parameters.find((p) => p.in === "path" && p.name === doc);
}

/**
 * An imported system's start page (`billing://`): its listings as links, and the listings that
 * sit under a record (`/companies/{companyId}/connections`) as links to a small form asking for
 * those parameters, whose answer is the listing's link. Every system has a way in, even one
 * whose every GET is under a path parameter; nothing is read from the API here.
 */
export function systemStartRoute(ctx: RouteContext, description: string): RouteDefinition {
  const plans = [...ctx.plans.values()];
  const top = plans.filter((p) => p.kind === "listing" && Object.keys(p.params).length === 0);
  const nested = openablePages(plans);
  const nestedListings = nested.filter((p) => p.kind === "listing");
  const pattern = `${ctx.scheme}://`;
  const fieldsOf = (plan: OperationPlan) =>
    Object.keys(plan.params).map((route) => {
      const p = parameterOf(plan, route);
      return {
        route,
        name: formFieldName(plan.params[route] ?? route),
        description: (p?.description ?? "").slice(0, 200),
      };
    });
  return {
    pattern,
    title: ctx.title,
    description: `${ctx.title}: its listings and where each starts`,
    keywords: ["start", "home", "index", ctx.scheme],
    startPoint: true,
    async render(match) {
      const open = match.uri.query.open;
      const chosen = open !== undefined && /^\d{1,4}$/.test(open) ? nested[Number(open)] : undefined;
      if (open !== undefined) {
        if (!chosen)
          return {
            title: ctx.title,
            outcome: "not_found",
            markdown: `No listing ${escapeText(shownPrefix(open, 10, ""))} here: ${link(ctx.title, pattern)}`,
          };
        const fields = fieldsOf(chosen).map((f) => ({
          name: f.name,
          type: "string",
          required: true,
          description: f.description || `the ${f.route} of the record this listing is under`,
        }));
        return {
          title: operationTitle(chosen),
          outcome: "input_required",
          markdown: [
            `${escapeText(operationTitle(chosen))} is a ${chosen.kind === "listing" ? "listing under a record" : "page"} (GET ${escapeText(chosen.op.path)}): give its parameters, and the answer links to it. Nothing is sent to ${escapeText(ctx.title)} by this form.`,
            formBlock(match.uri.uri, fields),
          ].join("\n\n"),
        };
      }
      const lines = top.slice(0, MAX_ENTRIES).map((p) => `- ${link(operationTitle(p), p.pattern)}`);
      const entry = (p: OperationPlan) =>
        `- ${link(operationTitle(p), openLink(ctx.scheme, nested.indexOf(p)))} — ${p.kind === "listing" ? "under" : "by"} ${fieldsOf(
          p,
        )
          .map((f) => f.name)
          .join(", ")}`;
      const under = nestedListings.slice(0, MAX_ENTRIES).map(entry);
      const pagesBy = nested.filter((p) => p.kind === "detail");
      const by = pagesBy.slice(0, MAX_ENTRIES).map(entry);
      const more = (n: number) =>
        n > MAX_ENTRIES ? `\n\n…and ${n - MAX_ENTRIES} more: \`search\` finds them by their words.` : "";
      return {
        title: ctx.title,
        outcome: "applied",
        markdown: [
          description,
          lines.length ? `## Listings\n\n${lines.join("\n")}${more(top.length)}` : "",
          under.length
            ? `## Listings under a record (each asks for the record)\n\n${under.join("\n")}${more(nestedListings.length)}`
            : "",
          by.length
            ? `## Pages by their parameters (each asks for them)\n\n${by.join("\n")}${more(pagesBy.length)}`
            : "",
          !lines.length && !under.length && !by.length
            ? "_(no listing: its pages are detail pages and forms; `search` finds them)_"
            : "",
        ]
          .filter(Boolean)
          .join("\n\n"),
      };
    },
    async submit(match, fields) {
      const open = match.uri.query.open ?? "";
      const chosen = /^\d{1,4}$/.test(open) ? nested[Number(open)] : undefined;
      if (!chosen)
        return {
          title: ctx.title,
          outcome: "not_found",
          markdown: `No such listing: ${link(ctx.title, pattern)}`,
        };
      const values: Record<string, unknown> = {};
      const missing: string[] = [];
      for (const f of fieldsOf(chosen)) {
        const value = fields[f.name];
        if (value === undefined || value === "") missing.push(f.name);
        else values[f.route] = value;
      }
      const uri = missing.length ? null : fillPattern(chosen.pattern, values);
      if (!uri)
        return {
          title: operationTitle(chosen),
          outcome: "rejected",
          markdown: `**rejected:** ${missing.length ? `${missing.join(", ")} required` : "each value must be one path segment (no / or \\, not . or ..)"}.\n\n${link("Try again", match.uri.uri)}`,
        };
      return {
        title: operationTitle(chosen),
        outcome: "applied",
        markdown: `Open it: ${link(operationTitle(chosen), uri)}`,
      };
    },
  };
}
