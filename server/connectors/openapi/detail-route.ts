import type { RouteDefinition } from "../sdk/define-route";
import { escapeText } from "../sdk/markdown";
import { isOutcome, outcomePage } from "../sdk/route-pages";
import {
  askForFilters,
  detailQuery,
  filterProblem,
  missingFilters,
  openWithFilters,
} from "./listing-filters";
import { operationKeywords, operationTitle, routeDescription } from "./operation-words";
import type { OperationPlan } from "./plan-operations";
import { asRow, failurePage, send } from "./read-api";
import { formsSection, referenceLinks, relatedLinks } from "./related-links";
import { objectMarkdown } from "./render-api-response";
import { pathValues, type RouteContext, routeValues } from "./route-values";

/** One record's GET as a page: its fields, the pages related to it, and its forms. */
export function detailRoute(ctx: RouteContext, plan: OperationPlan, opener?: string): RouteDefinition {
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
