import { actionPage } from "../sdk/action-page";
import type { PageBody, RouteDefinition, RouteMatch } from "../sdk/define-route";
import { code, escapeText, formBlock, shownPrefix } from "../sdk/markdown";
import { formatBrowseUri } from "../sdk/parse-browse-uri";
import { isOutcome, outcomePage } from "../sdk/route-pages";
import { callFor } from "./api-request-capability";
import { API_REQUEST } from "./api-request-names";
import type { OpenApiAdapter } from "./openapi-adapter";
import type { ApiAnswer } from "./openapi-http-client";
import { OPENAPI_LIMITS } from "./openapi-limits";
import { operationLineFields } from "./operation-line-fields";
import { operationKeywords, operationTitle, routeDescription } from "./operation-words";
import type { OperationPlan } from "./plan-operations";
import { asRow, failurePage, listingRows } from "./read-api";
import { columnsOf, cut, objectMarkdown, rowsTable } from "./render-api-response";
import { pathValues, type RouteContext } from "./route-values";
import { byFieldName, checkFields, coerceFields, formFields } from "./schema-form-fields";

/** A write as a form: submitting prepares it for a person's approval (an admin-marked read is sent at once). */
export function formRoute(ctx: RouteContext, plan: OperationPlan): RouteDefinition {
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
    // Beside every link to the form, so it is submitted without being opened first.
    async fields() {
      return operationLineFields(plan);
    },
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
      const shown = actionPage(outcome, backend, { sent: true });
      return {
        ...shown,
        title: `${title}: ${shown.title}`,
        actionId: outcome.action_id,
        capability: API_REQUEST,
      };
    },
  };
}
