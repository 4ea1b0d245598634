/**
 * The connector SDK: everything a connector — in Signpost's source or in a folder of its own
 * (SIGNPOST_CONNECTORS_DIR) — builds on. Outside the source, import it as `signpost/sdk`.
 *
 * ```ts
 * import { defineConnector, defineRoute, createHttpClient, link } from "signpost/sdk";
 *
 * export default defineConnector({
 *   id: "crm", title: "CRM", scheme: "crm", description: "Accounts and their notes.",
 *   secrets: [{ name: "api_key", description: "The CRM's API key" }],
 *   createAdapter: ({ baseUrl, secrets }) => ({ http: createHttpClient({ baseUrl, apiKey: secrets.api_key ?? "" }) }),
 *   healthPath: "/health",
 *   checkConnection: bearerHealthCheck("/health"),
 *   capabilities: [], entities: [],
 *   routes: [defineRoute({ pattern: "crm://accounts", title: "Accounts", description: "…", keywords: ["accounts"],
 *     startPoint: true, render: async (_match, backend) => ({ title: "Accounts", outcome: "applied", markdown: "…" }) })],
 * });
 * ```
 * `npx signpost new-connector <id>` writes a complete one, with a form, a capability and tests.
 */

export type { BackendOutcome, BrowseBackend, ListPage, Row } from "./browse-backend";
export type { CachedLookups } from "./cached-lookups";
export { capabilityFormRoute } from "./capability-form-route";
export type {
  DecisionSummary,
  ShownField,
  SummaryDeclaration,
  SummaryEntry,
  SummaryValue,
} from "./decision-summary";
export { moneyPart, plainPart, SHOWN_KEY, withShown } from "./decision-summary";
export type {
  Actor,
  AnyCapability,
  CapabilityDefinition,
  CapabilityPolicy,
  EffectDefinition,
  EffectResult,
  FieldWords,
  MoneyKeys,
  NodeDefinition,
  NodeResult,
  Verification,
} from "./define-capability";
export { DEFAULT_APPROVERS, defineCapability } from "./define-capability";
export type {
  AdapterOptions,
  ConnectorDefinition,
  ConnectorEntity,
  EntityView,
  RecordQuery,
} from "./define-connector";
export { defineConnector } from "./define-connector";
export type {
  AwaitingApproval,
  ChoiceFilter,
  FilterChoice,
  FilterSpec,
  ListedItem,
  PageBody,
  RouteDefinition,
  RouteMatch,
} from "./define-route";
export { defineRoute } from "./define-route";
export { toEffectResult } from "./effect-result";
export type { AdapterWrites, HttpAnswer, HttpClient, HttpClientOptions, HttpRequest } from "./http-client";
export { bearerHealthCheck, createHttpClient, sendWithRetries } from "./http-client";
export type { FormField } from "./markdown";
export { code, escapeText, fieldList, formBlock, link, money, table } from "./markdown";
export type { OrderKey } from "./ordered-rows";
export { orderedRows } from "./ordered-rows";
export type { NextAction, ValidationError } from "./outcome";
export type { PersonAuth, PersonConnectionHandle } from "./person-auth";
export { ConnectionRequiredError, UpstreamForbiddenError } from "./person-auth";
export { recordDates } from "./record-dates";
export type { StatusLifecycle } from "./record-events";
export { statusLifecycle } from "./record-events";
export type { ReferenceLabels, ReferenceNames } from "./reference-labels";
export { askedColumnNames, labelledValue, referenceLabels } from "./reference-labels";
export { objectSections, rowsTable } from "./render-helpers";
export type { ListingOptions } from "./route-pages";
export {
  filterValue,
  invalidFilterPage,
  isOutcome,
  listPage,
  NOT_FOUND_FOR,
  noRowsLine,
  outcomePage,
  pageNumber,
  partActionsSection,
  perPage,
  viewPage,
} from "./route-pages";
export { SystemRejectedError, SystemUnavailableError } from "./system-errors";
export { visibleText } from "./visible-text";
