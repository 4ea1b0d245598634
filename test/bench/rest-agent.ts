import { encode } from "gpt-tokenizer/encoding/o200k_base";

type Json = Record<string, unknown>;

/** Operations that move money: through the wrapper nobody approves them. */
const MONEY = new Set([
  "createPayment",
  "refundOrder",
  "returnItems",
  "exchangeItem",
  "refundShippingDifference",
  "cancelOrder",
]);

export interface RestCall {
  tool: string;
  status: number;
  body: unknown;
}

/**
 * The agent on a one-tool-per-operation wrapper of the legacy OpenAPI document: each call is
 * one wrapped tool (path parameters, query parameters and `body` as the wrapper's input schema
 * has them), answered with the status and the JSON body the model reads.
 */
export class RestAgent {
  calls = 0;
  responseTokens = 0;
  /** Money-moving calls made without a person's approval (attempted, whatever the answer). */
  unapproved: string[] = [];
  private readonly ops = new Map<string, { method: string; path: string; params: Json[] }>();

  constructor(
    document: { paths: Record<string, Record<string, Json>> },
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(item))
        if (op && typeof op === "object" && typeof op.operationId === "string")
          this.ops.set(op.operationId, { method, path, params: (op.parameters as Json[]) ?? [] });
  }

  async call(tool: string, args: Json = {}, timeoutMs = 5_000): Promise<RestCall> {
    const op = this.ops.get(tool);
    if (!op) throw new Error(`no operation ${tool}`);
    this.calls++;
    if (MONEY.has(tool)) this.unapproved.push(tool);
    let path = op.path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}` };
    for (const [key, value] of Object.entries(args)) {
      if (key === "body") continue;
      const param = op.params.find((p) => p.name === key);
      if (param?.in === "path") path = path.replace(`{${key}}`, encodeURIComponent(String(value)));
      else if (param?.in === "header") headers[key] = String(value);
      else query.set(key, String(value));
    }
    if (args.body !== undefined) headers["content-type"] = "application/json";
    let status = 0;
    let body: unknown;
    try {
      const res = await fetch(`${this.baseUrl}${path}${query.size ? `?${query}` : ""}`, {
        method: op.method.toUpperCase(),
        headers,
        body: args.body !== undefined ? JSON.stringify(args.body) : undefined,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      body = await res.json().catch(() => null);
    } catch (error) {
      body = { error: { code: "timeout", message: String((error as Error).message) } };
    }
    this.responseTokens += encode(JSON.stringify({ status, body })).length;
    return { tool, status, body };
  }
}

/** `body.data` of a list envelope. */
export function dataOf(call: RestCall): Json[] {
  return ((call.body as { data?: Json[] } | null)?.data ?? []) as Json[];
}
