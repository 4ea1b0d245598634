import type { RunningLegacy } from "@/test/helpers/legacy-server";

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies freely; the service validates its own shapes.
export interface LegacyResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface CallOptions {
  tenant?: "acme" | "globex";
  /** Overrides the Authorization header value; null sends none. */
  authorization?: string | null;
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** One real HTTP call to the legacy service as a tenant (acme by default). */
// biome-ignore lint/suspicious/noExplicitAny: see LegacyResponse.
export async function call<T = any>(
  legacy: RunningLegacy,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<LegacyResponse<T>> {
  const headers: Record<string, string> = {};
  const auth =
    options.authorization === undefined
      ? `Bearer ${legacy.apiKeys[options.tenant ?? "acme"]}`
      : options.authorization;
  if (auth !== null) headers.authorization = auth;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
  const res = await fetch(`${legacy.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
