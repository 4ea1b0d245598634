import type { AdapterWrites } from "../sdk/http-client";
import type { PersonConnectionHandle } from "../sdk/person-auth";
import type { HeaderSetting } from "./header-settings";
import { type ApiAnswer, type ApiCall, createApiClient } from "./openapi-http-client";
import type { OperationPlan } from "./plan-operations";
import type { SchemeAuth } from "./security-schemes";

/**
 * The adapter of one imported connector for one tenant: the document's operations (what the
 * generic write capability looks its operation up in) and the client that sends them with the
 * tenant's secrets. Built per call by the gateway; holds no state but OAuth2 tokens.
 */
export interface OpenApiAdapter extends AdapterWrites {
  readonly kind: "openapi";
  /**
   * No HttpClient: `send` answers every outcome (sent or not) as an ApiAnswer and never throws
   * after sending, so the engine has no write to watch (AdapterWrites).
   */
  readonly http: null;
  connectorId: string;
  title: string;
  /** The header an admin named for the action key, used where the document declares none. */
  idempotencyHeader?: string;
  plan(operationId: string): OperationPlan | undefined;
  plans(): Iterable<OperationPlan>;
  send(call: ApiCall): Promise<ApiAnswer>;
}

export function isOpenApiAdapter(value: unknown): value is OpenApiAdapter {
  return !!value && typeof value === "object" && (value as { kind?: unknown }).kind === "openapi";
}

export function createOpenApiAdapter(input: {
  connectorId: string;
  title: string;
  baseUrl: string;
  secrets: Record<string, string>;
  schemes: Map<string, SchemeAuth>;
  plans: Map<string, OperationPlan>;
  idempotencyHeader?: string;
  /** Headers every request carries, from the connector's settings. */
  headerSettings?: HeaderSetting[];
  settings?: Record<string, string>;
  /** The person's own connection, for a document whose scheme is OAuth2 authorization code. */
  person?: PersonConnectionHandle;
}): OpenApiAdapter {
  const client = createApiClient({
    baseUrl: input.baseUrl,
    secrets: input.secrets,
    schemes: input.schemes,
    person: input.person,
    system: { id: input.connectorId, title: input.title },
  });
  return {
    kind: "openapi",
    http: null,
    connectorId: input.connectorId,
    title: input.title,
    idempotencyHeader: input.idempotencyHeader,
    plan: (operationId) => input.plans.get(operationId),
    plans: () => input.plans.values(),
    async send(call) {
      const headers = { ...call.headers };
      const missing: string[] = [];
      for (const s of input.headerSettings ?? []) {
        const value = input.settings?.[s.name];
        if (value) headers[s.header] = value;
        else missing.push(s.name);
      }
      // The API requires them on every request: nothing is sent until an admin has set them.
      if (missing.length)
        return {
          kind: "refused",
          message: `the connector setting${missing.length > 1 ? "s" : ""} ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} not set; an admin sets ${missing.length > 1 ? "them" : "it"} on the Connectors page (config://${input.connectorId})`,
        };
      return client.send({ ...call, headers });
    },
  };
}
