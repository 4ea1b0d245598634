import type { BackendOutcome, BrowseBackend } from "../sdk/browse-backend";
import type { PageBody } from "../sdk/define-route";
import { escapeText, link, shownPrefix } from "../sdk/markdown";
import type { ApiParameter } from "./api-operations";
import { rowsAt } from "./listing-rows";
import type { OpenApiAdapter } from "./openapi-adapter";
import type { ApiAnswer } from "./openapi-http-client";
import type { OperationPlan } from "./plan-operations";
import { rowsOf } from "./render-api-response";
import type { RouteContext } from "./route-values";

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
export function failurePage(
  ctx: RouteContext,
  title: string,
  answer: Exclude<ApiAnswer, { kind: "ok" }>,
): PageBody {
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

/** Sends a read for a page, adding the values the document itself gives required parameters. */
export async function send(
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
export function documentedValue(p: ApiParameter): unknown {
  if (p.schema.default !== undefined) return p.schema.default;
  if (p.schema.enum?.length === 1) return p.schema.enum[0];
  return typeof p.example === "object" ? undefined : p.example;
}

/** A listing's records: where its response schema puts them, else wherever the answer has them. */
export function listingRows(
  plan: OperationPlan,
  body: unknown,
  resource = "",
): Record<string, unknown>[] | null {
  return (plan.rows && rowsAt(body, plan.rows.at)) ?? rowsOf(body, resource);
}

export function asRow(body: unknown): Record<string, unknown> {
  return body && typeof body === "object" && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : { value: body };
}
