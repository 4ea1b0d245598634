// stays-whole: one capability, one file (the generic api_request write of every imported system).
import { z } from "zod";
import { type DecisionSummary, decisionSummarySchema, SHOWN_KEY } from "../sdk/decision-summary";
import { defineCapability, type EffectResult, type Verification } from "../sdk/define-capability";
import type { AnyConnector } from "../sdk/define-connector";
import type { ValidationError } from "../sdk/outcome";
import { SUMMARY_ROW_LIMIT, summaryRowCount } from "../sdk/render-decision-summary";
import { API_REQUEST, OPENAPI_CONNECTOR_ID } from "./api-request-names";
import { matchFormTarget } from "./match-form-target";
import type { OpenApiAdapter } from "./openapi-adapter";
import { type ApiAnswer, type ApiCall, CONTROL } from "./openapi-http-client";
import { OPENAPI_LIMITS } from "./openapi-limits";
import type { OperationPlan } from "./plan-operations";
import { requestSummary, requestValues } from "./request-summary";
import { byFieldName, checkFields, coerceFields, type OperationField } from "./schema-form-fields";

/** The adapter of the `openapi` connector: it opens the tenant's imported connectors' adapters. */
export interface OpenApiRouter {
  connector(id: string): Promise<OpenApiAdapter | null>;
}

type Values = Record<string, unknown>;

/** The system, form and path values an action's target URI names, or why it names none. */
async function resolveTarget(
  router: OpenApiRouter,
  values: Values,
): Promise<{ adapter: OpenApiAdapter; plan: OperationPlan; path: Record<string, string> } | ValidationError> {
  const target = String(values.target ?? "");
  const scheme = /^([a-z][a-z0-9]{1,29}):\/\//.exec(target)?.[1] ?? "";
  const adapter = await router.connector(scheme);
  if (!adapter)
    return {
      field: "target",
      code: "unknown_connector",
      message: "No imported system by that scheme",
      refused: true,
    };
  const matched = matchFormTarget(adapter.plans(), target);
  if (!matched)
    return {
      field: "target",
      code: "unknown_operation",
      message: "The target is no write form of this system",
      refused: true,
    };
  return { adapter, plan: matched.plan, path: matched.path };
}

/** The call a plan and its values make: path parameters in the path, query ones in the query, the rest the body. */
export function callFor(
  plan: OperationPlan,
  values: Values,
  actionKey?: string,
  idempotencyHeader?: string,
): ApiCall {
  const call: ApiCall = { operation: plan.op, path: {}, query: {}, headers: {} };
  const body: Values = {};
  for (const field of plan.fields ?? []) {
    const value = values[field.name];
    if (value === undefined || value === "") continue;
    // The form's names are the agent's; the API is sent the document's own.
    if (field.where === "path") call.path[field.param] = String(value);
    else if (field.where === "query")
      call.query[field.param] = typeof value === "object" ? JSON.stringify(value) : (value as string);
    else if (field.where === "header") call.headers[field.param] = String(value);
    else if (field.whole) call.body = value;
    else body[field.param] = value;
  }
  if (call.body === undefined && (Object.keys(body).length || plan.op.body?.required)) call.body = body;
  const header = plan.op.idempotencyHeader ?? idempotencyHeader;
  if (actionKey && header) {
    call.idempotencyKey = actionKey;
    call.idempotencyHeader = header;
  }
  return call;
}

/**
 * A header or path value with a control character (CR/LF above all) cannot be sent as it is:
 * the HTTP client refuses it before sending, or it would forge another header or path. Refused
 * when the action is advanced, naming the field, so nothing approved can fail that way.
 */
function controlCharacters(fields: readonly OperationField[], values: Values): ValidationError[] {
  return fields
    .filter((f) => (f.where === "header" || f.where === "path") && CONTROL.test(String(values[f.name] ?? "")))
    .map((f) => ({
      field: f.name,
      code: "control_character",
      message: `The ${f.where} parameter ${f.param} contains a control character (a line break, tab or other invisible code): it cannot be sent; submit the form again without one`,
      // Refused, not "fill it in": a value that would forge a header is an attack as often as a slip.
      refused: true,
    }));
}

/**
 * A header or path value is one piece of text: an object or a list would be sent as
 * `[object Object]` or `a,b`, which is not what the screen shows. Refused at advance.
 */
function nonScalars(fields: readonly OperationField[], values: Values): ValidationError[] {
  return fields
    .filter(
      (f) =>
        (f.where === "header" || f.where === "path") &&
        values[f.name] !== null &&
        typeof values[f.name] === "object",
    )
    .map((f) => ({
      field: f.name,
      code: "not_scalar",
      message: `The ${f.where} parameter ${f.param} must be one value (text, a number or true/false), not an object or a list: submit the form again with one`,
      refused: true,
    }));
}

/** The path with its parameters filled, whole, as a person reads it on the confirm screen. */
function shownPath(plan: OperationPlan, values: Values): string {
  return plan.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => String(values[name] ?? `{${name}}`));
}

/**
 * The values the request is built from: those of the summary the person approved (the digest
 * binds it), read back from its typed parts — nothing it does not show can be sent. Null when
 * the stored summary cannot be read: then nothing is sent (never an empty request in its place).
 */
function approvedValues(plan: OperationPlan, derived: Values): Values | null {
  const shown = decisionSummarySchema.safeParse(derived.shown);
  return shown.success ? requestValues(shown.data, plan.fields ?? []) : null;
}

const UNREADABLE =
  "the approved summary cannot be read back, so the request it shows cannot be rebuilt: nothing was sent";

/**
 * Why a request's summary cannot be approved, or null: every value sent must be a row every
 * screen draws, so a summary the schema refuses (a key longer than a label holds), one with
 * more rows than a screen shows, or one whose values do not rebuild exactly the request the
 * agent's values make, is refused when the action is advanced — never sent as something else.
 */
function unshowable(plan: OperationPlan, values: Values, shown: DecisionSummary): ValidationError | null {
  const refuse = (code: string, message: string): ValidationError => ({
    field: "values",
    code,
    message,
    refused: true,
  });
  const parsed = decisionSummarySchema.safeParse(shown);
  if (!parsed.success)
    return refuse(
      "summary_unshowable",
      "The request cannot be shown whole on the confirm screen (a name or value is longer than a screen holds): send fewer or shorter values",
    );
  const rows = summaryRowCount(parsed.data);
  if (rows > SUMMARY_ROW_LIMIT)
    return refuse(
      "too_many_values",
      `The request has ${rows} values to show; a confirm screen shows at most ${SUMMARY_ROW_LIMIT}, and nothing is sent that it does not show: split it into smaller requests`,
    );
  // What is sent, compared: not the operation (its schemas may refer to themselves, and cannot be JSON).
  const sent = ({ path, query, headers, body }: ApiCall) => JSON.stringify({ path, query, headers, body });
  if (sent(callFor(plan, requestValues(parsed.data, plan.fields ?? []))) !== sent(callFor(plan, values)))
    return refuse(
      "summary_unshowable",
      "The request cannot be shown exactly as it would be sent (a value has no exact text on the confirm screen): submit the form again with plain values",
    );
  return null;
}

/**
 * The API's answer as kept on the effect. The console redacts it when shown; a cut through the
 * middle of a token would leave a start no pattern recognises, so the cut backs off to the last
 * character that cannot be part of one.
 */
function bounded(body: unknown): unknown {
  const text = JSON.stringify(body ?? null);
  return text.length <= 4000
    ? body
    : {
        note: "the API's answer is larger than kept",
        start: text.slice(0, 2000).replace(/[^\s"',:;{}[\]()<>]+$/, ""),
      };
}

function effectOf(answer: ApiAnswer): EffectResult {
  switch (answer.kind) {
    case "ok": {
      const id = (answer.body as { id?: unknown } | null)?.id;
      return {
        status: "applied",
        externalId: typeof id === "string" || typeof id === "number" ? String(id).slice(0, 100) : undefined,
        response: bounded(answer.body),
      };
    }
    case "error":
      return {
        status: "rejected",
        code: `http_${answer.status}`,
        message: `the API answered HTTP ${answer.status}`,
      };
    case "refused":
      return { status: "rejected", code: "not_sent", message: answer.message };
    case "unavailable":
      return { status: "unavailable", message: answer.message };
    case "unknown":
      return { status: "unknown", message: answer.message };
  }
}

/** Whether the resource read back shows what was sent (each sent body field equal). */
function shows(resource: unknown, sent: unknown): boolean {
  if (!sent || typeof sent !== "object") return true;
  if (!resource || typeof resource !== "object") return false;
  return Object.entries(sent as Values).every(
    ([k, v]) => JSON.stringify((resource as Values)[k]) === JSON.stringify(v),
  );
}

/**
 * The one capability every imported write operation runs as. Its action carries the connector,
 * the operation and the values; the first node checks them against the operation's fields, the
 * second is the confirmation a person approves (method, path and every field, in words). The
 * effect sends the request once, with the action key in the API's idempotency header when the
 * document (or an admin) names one. Verification reads the resource back where the document has
 * a GET for the same path (a PUT/PATCH shows what was sent; a DELETE answers 404); a POST whose
 * answer was lost cannot be read back, so it stays `unknown` for the recovery queue. Nothing
 * here re-sends a write: the engine's policy allows one attempt.
 */
export const apiRequest = defineCapability<OpenApiRouter>({
  id: API_REQUEST,
  connector: OPENAPI_CONNECTOR_ID,
  title: "Send a request to an imported system",
  description: "Sends one write operation of an imported OpenAPI system, after a person approves it.",
  trigger: {
    use: "Submit an imported system's form page: the form prepares this action for approval.",
    avoid:
      "Not for the built-in systems, and not started by hand: use the system's form page (search for it).",
  },
  // Started from forms: words find it only where they name an imported system or its API.
  foundBy: ["imported", "openapi", "api", "system", "systems"],
  synonyms: ["imported api write", "openapi request"],
  // The form URI is what the action is about: fixed once started, so a patch can never move a
  // granted write to another operation, resource or system.
  appliesTo: { entity: "api_operation", field: "target" },
  prerequisites: [
    "a write form of an imported system",
    "a grant to start it (writes are denied until an admin allows them)",
  ],
  sideEffects: ["the API's own write: whatever the operation does in that system"],
  policy: {
    effect: "write",
    permission: "openapi.request",
    // Who may start one is decided by the form URI's rules (permissionTarget below), not by role.
    roles: ["admin", "support", "member"],
    approval: "always",
    // A write into a company's system: the person it is for, or an admin, decides.
    approvers: { subject: true, roles: ["admin"] },
    retry: { attempts: 1, backoffMs: 0 },
    timeoutMs: OPENAPI_LIMITS.timeoutMs,
    audit: "full",
  },
  nodes: [
    {
      id: "REQUEST",
      description: "The imported system, its write operation and the values of its form",
      fields: {
        target: z
          .string()
          .min(6)
          .max(300)
          .describe(
            "The imported system's write form URI, e.g. billing://invoices/create (fixed once started)",
          ),
        values: z.record(z.string().max(60), z.unknown()).describe("The form's fields, by name"),
      },
      async resolve({ adapter, values }) {
        const target = await resolveTarget(adapter, values);
        // Another tenant's system (or none) is not there for this actor at all.
        if ("field" in target && target.code === "unknown_connector")
          return { notFound: { entity: "imported system", id: String(values.target ?? "").slice(0, 60) } };
        if ("field" in target) return { errors: [target] };
        const fields = target.plan.fields ?? [];
        // The target URI names the resource: its path values win over fields of the same name.
        const coerced = coerceFields(fields, {
          ...((values.values ?? {}) as Values),
          ...byFieldName(fields, "path", target.path),
        });
        const errors = [
          ...checkFields(fields, coerced),
          ...controlCharacters(fields, coerced),
          ...nonScalars(fields, coerced),
        ].map((e) => ({
          ...e,
          field: `values.${e.field}`,
          // The form page shows its fields; an action's answer names them with the unknown one.
          ...(e.code === "unknown_field" && !e.refused
            ? { message: `${e.message}; accepted: ${fields.map((f) => f.name).join(", ")}` }
            : {}),
        }));
        // A value in people's words for a field with a fixed set ("Sold" for sold), or the
        // request naming one, is read by the engine's words mechanism like any node's choices.
        const choices = Object.fromEntries(
          fields
            .filter((f) => f.schema.enum?.every((v) => typeof v === "string"))
            .map((f) => [f.name, (f.schema.enum ?? []) as string[]]),
        );
        if (errors.length) return { errors, inner: { field: "values", choices } };
        const path = shownPath(target.plan, callFor(target.plan, coerced).path);
        const shown = requestSummary(target.plan, target.adapter.title, path, coerced);
        const refusal = unshowable(target.plan, coerced, shown);
        if (refusal) return { errors: [refusal] };
        return {
          derived: {
            operation: target.plan.op.id,
            system: target.adapter.title,
            method: target.plan.op.method.toUpperCase(),
            path,
            values: coerced,
            shown,
          },
        };
      },
    },
    { id: "CONFIRM_REQUEST", description: "A person approves the request", requiresConfirmation: true },
  ],
  // The summary is the request: method, full path and every value sent, typed by the document.
  summarize: ({ derived }) => ({
    method: derived.method,
    path: derived.path,
    system: derived.system,
    [SHOWN_KEY]: derived.shown,
  }),
  effect: {
    kind: "openapi.request",
    description: "Send the approved request to the imported system",
    async execute({ adapter, values, derived, actionKey }) {
      const target = await resolveTarget(adapter, values);
      if ("field" in target) return { status: "rejected", code: target.code, message: target.message };
      const approved = approvedValues(target.plan, derived);
      if (!approved) return { status: "rejected", code: "summary_unreadable", message: UNREADABLE };
      return effectOf(
        await target.adapter.send(
          callFor(target.plan, approved, actionKey, target.adapter.idempotencyHeader),
        ),
      );
    },
    // Sending again cannot apply twice only where the API deduplicates by the action key.
    async resendable({ adapter, values }) {
      const target = await resolveTarget(adapter, values);
      return !("field" in target) && !!(target.plan.op.idempotencyHeader ?? target.adapter.idempotencyHeader);
    },
    async verify({ adapter, values, derived }): Promise<Verification> {
      const target = await resolveTarget(adapter, values);
      if ("field" in target) return { happened: "unavailable", message: target.message };
      const readBack = target.plan.readBack ? target.adapter.plan(target.plan.readBack) : undefined;
      if (!readBack)
        return {
          happened: "unavailable",
          message: "the document has no GET to read this resource back: a person checks the system",
        };
      const approved = approvedValues(target.plan, derived);
      if (!approved) return { happened: "unavailable", message: UNREADABLE };
      const sent = callFor(target.plan, approved);
      const answer = await target.adapter.send({
        operation: readBack.op,
        path: sent.path,
        query: {},
        headers: {},
      });
      // Only evidence that decides it: a record that still reads back after a DELETE may be
      // soft-deleted, and one that reads back with other values may have changed since. Neither
      // proves the write absent, so neither lets recovery send it again.
      if (target.plan.op.method === "delete") {
        if (answer.kind === "error" && (answer.status === 404 || answer.status === 410))
          return { happened: true, details: { read_back: answer.status } };
        if (answer.kind === "ok")
          return {
            happened: "undecided",
            message: `the record still reads back (HTTP ${answer.status}), as it does where deletes are soft`,
            details: { read_back: answer.status },
          };
      } else if (answer.kind === "ok") {
        return shows(answer.body, sent.body)
          ? { happened: true, details: { read_back: answer.status } }
          : {
              happened: "undecided",
              message: `the record reads back (HTTP ${answer.status}) without the values sent; it may have changed since`,
              details: { read_back: answer.status },
            };
      }
      return {
        happened: "unavailable",
        message: `reading it back answered ${answer.kind === "error" ? `HTTP ${answer.status}` : answer.kind}`,
      };
    },
  },
  permissionTarget: (patch, among) => writeTarget(patch, among as readonly AnyConnector[]),
});

/** Connectors that carry their operation plans (the generated ones). */
export interface PlannedConnector {
  openapi: { plans: Map<string, OperationPlan> };
}

/**
 * What starting an imported write is authorized against: its form's URI (`billing://invoices/
 * create`), so an admin grants writes per operation and per resource with the same rules as
 * pages. A target that names no imported form is authorized as the capability itself (and then
 * answered not_found or refused by the first node).
 */
export function writeTarget(patch: Values, among: readonly AnyConnector[]): string {
  const scheme = /^([a-z][a-z0-9]{1,29}):\/\//.exec(String(patch.target ?? ""))?.[1];
  const connector = among.find((c) => c.scheme === scheme) as
    | (AnyConnector & Partial<PlannedConnector>)
    | undefined;
  const matched = connector?.openapi ? matchFormTarget(connector.openapi.plans.values(), patch.target) : null;
  return matched?.uri ?? `capability:${API_REQUEST}`;
}
