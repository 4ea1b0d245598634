import type { OpenAPIV3 } from "openapi-types";
import { isProtocolHeader } from "../../egress/egress-request";

/** A JSON schema as the dereferenced document holds it (3.0 and 3.1 shapes alike). */
export interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  required?: string[];
  description?: string;
  title?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
  readOnly?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export interface ApiParameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description: string;
  schema: Schema;
  example?: unknown;
}

/** One operation of the document, in the shape generation reads. */
export interface ApiOperation {
  /** The document's operationId, or `method_path` when it has none; unique in the document. */
  id: string;
  method: HttpMethod;
  /** The path template as documented (`/v1/orders/{id}`). */
  path: string;
  summary: string;
  description: string;
  tags: string[];
  deprecated: boolean;
  parameters: ApiParameter[];
  body?: { schema: Schema; required: boolean };
  /** The JSON schema of the success response, if documented. */
  response?: Schema;
  /** What the request's Accept header says: the success response's media types as documented. */
  accept?: string;
  /** Alternatives of scheme names (any one list satisfies the operation); [] = no auth. */
  security: string[][];
  /** The header the API reads an idempotency key from, when it documents one. */
  idempotencyHeader?: string;
}

/** An operation generation left out, with why (the import report says so). */
export interface SkippedOperation {
  method: string;
  path: string;
  id: string;
  reason: string;
}

const METHODS: HttpMethod[] = ["get", "post", "put", "patch", "delete"];
const IDEMPOTENCY_HEADERS = ["idempotency-key", "x-idempotency-key", "idempotency_key", "x-request-id"];

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function jsonSchemaOf(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined): Schema | undefined {
  if (!content) return undefined;
  const key = Object.keys(content).find((type) => /^application\/([a-z.+-]*\+)?json\b/i.test(type));
  return key ? ((content[key]?.schema ?? {}) as Schema) : undefined;
}

function successContent(
  op: OpenAPIV3.OperationObject,
): Record<string, OpenAPIV3.MediaTypeObject> | undefined {
  const responses = (op.responses ?? {}) as Record<string, OpenAPIV3.ResponseObject>;
  if (!responses || typeof responses !== "object") return undefined;
  const code = ["200", "201", "202", "2XX", "default"].find((c) => responses[c]);
  const content = code ? responses[code]?.content : undefined;
  return content && typeof content === "object" ? content : undefined;
}

/** The Accept header for an operation: its JSON type when it answers JSON, else what it documents, else any. */
function acceptOf(content: Record<string, OpenAPIV3.MediaTypeObject> | undefined): string {
  const types = Object.keys(content ?? {}).filter((t) => /^[\w.+-]+\/[\w.+*-]+$/.test(t));
  const json = types.find((t) => /^application\/([a-z.+-]*\+)?json\b/i.test(t));
  if (json) return json;
  return types.length ? types.slice(0, 5).join(", ") : "application/json, */*;q=0.5";
}

/** The first of a parameter's named examples (`examples: { name: { value } }`). */
function firstExample(examples: Record<string, { value?: unknown }> | undefined): unknown {
  if (!examples || typeof examples !== "object") return undefined;
  for (const e of Object.values(examples))
    if (e && typeof e === "object" && e.value !== undefined) return e.value;
  return undefined;
}

function text(value: unknown, max: number): string {
  return typeof value === "string" ? value.trim().slice(0, max) : "";
}

/** `createInvoice` as documented, or `post_v1_invoices` for an operation without an id. */
function operationName(op: OpenAPIV3.OperationObject, method: string, path: string): string {
  if (typeof op.operationId === "string" && op.operationId.trim()) return op.operationId.trim().slice(0, 100);
  return `${method}_${path.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_|_$/g, "")}`.slice(0, 100);
}

/** Where a documented path's query or fragment starts (`/#Action=X`, `/items?kind=a`), or -1. */
export function pathSuffixAt(path: string): number {
  return path.search(/[?#]/);
}

/** The `name=value` pairs of a path's query or fragment, as documented (at most 10, names as parameters go). */
export function pathPairs(path: string): Array<[string, string]> {
  const at = pathSuffixAt(path);
  if (at < 0) return [];
  const out: Array<[string, string]> = [];
  for (const pair of path.slice(at + 1).split(/[&#?]/)) {
    const eq = pair.indexOf("=");
    if (eq < 1) continue;
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(pair.slice(0, eq));
      value = decodeURIComponent(pair.slice(eq + 1));
    } catch {
      continue;
    }
    if (/^[A-Za-z_][A-Za-z0-9_.-]{0,39}$/.test(name) && value.length <= 200) out.push([name, value]);
  }
  return out.slice(0, 10);
}

/**
 * The operations of a dereferenced document, with path-level parameters merged into each, the
 * JSON request and success-response schemas picked, and the effective security. Operations that
 * browse cannot serve (a body that is not JSON, a required cookie) are returned as skipped.
 */
export function apiOperations(api: OpenAPIV3.Document): {
  operations: ApiOperation[];
  skipped: SkippedOperation[];
} {
  const operations: ApiOperation[] = [];
  const skipped: SkippedOperation[] = [];
  const globalSecurity = (api.security ?? []).map((req) => Object.keys(req));
  for (const [path, rawItem] of Object.entries(api.paths ?? {})) {
    const item = (rawItem ?? {}) as OpenAPIV3.PathItemObject;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const id = operationName(op, method, path);
      const skip = (reason: string) => skipped.push({ method: method.toUpperCase(), path, id, reason });
      const merged = new Map<string, OpenAPIV3.ParameterObject>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3.ParameterObject[])
        if (isObject(p)) merged.set(`${p.in}:${p.name}`, p);
      const parameters: ApiParameter[] = [];
      let unsupported = "";
      for (const p of merged.values()) {
        if (p.in === "cookie") {
          if (p.required) unsupported = `it needs the cookie ${p.name}`;
          continue;
        }
        if (p.in !== "path" && p.in !== "query" && p.in !== "header") continue;
        // The connection's own headers (Host, Connection…) are the egress layer's to set, never a
        // value an agent fills (a chosen Host reaches another virtual host behind the address).
        if (p.in === "header" && isProtocolHeader(String(p.name))) {
          if (p.required && isProtocolHeader(String(p.name)))
            unsupported = `it needs the protocol header ${String(p.name).slice(0, 40)}`;
          continue;
        }
        parameters.push({
          name: String(p.name),
          in: p.in,
          required: p.in === "path" || p.required === true,
          description: text(p.description, 300),
          schema: (p.schema ?? { type: "string" }) as Schema,
          example:
            p.example ??
            firstExample(p.examples as Record<string, { value?: unknown }> | undefined) ??
            (p.schema as Schema | undefined)?.example,
        });
      }
      if (unsupported) {
        skip(unsupported);
        continue;
      }
      // A path that carries a query or a fragment (AWS's `/#Action=DescribeInstances`, `/#X-Amz-Target=…`,
      // `/items?kind=a`): its pairs are the operation's fixed values. A pair the document declares as
      // a parameter is that parameter; another is a query parameter with that one value.
      for (const [name, value] of pathPairs(path))
        if (!parameters.some((p) => p.name === name))
          parameters.push({
            name,
            in: "query",
            required: true,
            description: `fixed by the operation's path (${name}=${value})`.slice(0, 300),
            schema: { type: "string", enum: [value] },
          });
      let body: ApiOperation["body"];
      const requestBody = op.requestBody as OpenAPIV3.RequestBodyObject | undefined;
      if (requestBody?.content && Object.keys(requestBody.content).length) {
        const schema = jsonSchemaOf(requestBody.content);
        if (!schema) {
          skip(`its request body is ${Object.keys(requestBody.content).join(", ")}, not JSON`);
          continue;
        }
        body = { schema, required: requestBody.required === true };
      }
      const idempotency = parameters.find(
        (p) => p.in === "header" && IDEMPOTENCY_HEADERS.includes(p.name.toLowerCase()),
      );
      operations.push({
        id,
        method,
        path,
        summary: text(op.summary, 200),
        description: text(op.description, 1000),
        tags: (op.tags ?? []).filter((t): t is string => typeof t === "string").map((t) => t.slice(0, 60)),
        deprecated: op.deprecated === true,
        // The idempotency header is Signpost's to fill (the action key), never a form field.
        parameters: parameters.filter((p) => p !== idempotency),
        body,
        response: jsonSchemaOf(successContent(op)),
        accept: acceptOf(successContent(op)),
        security:
          (op.security ?? null) === null ? globalSecurity : (op.security ?? []).map((r) => Object.keys(r)),
        idempotencyHeader: idempotency?.name,
      });
    }
  }
  return { operations, skipped };
}
