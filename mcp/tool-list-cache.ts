import { jsonAnswer, type PlainAnswer } from "./mcp-http-exchange";

/**
 * The `tools/list` answers this instance has given, per caller key (agent, role, faces, protocol
 * version): the list is built from code, not data, so once built it is the same for every later
 * request with that key, and a request that only lists tools skips building a server at all.
 */
export interface ToolListCache {
  /** The kept `result`, as JSON text. */
  get(key: string): string | undefined;
  set(key: string, result: unknown): void;
}

/**
 * A JSON-RPC answer with a kept result: the result's JSON is spliced in as it was serialized
 * once, not stringified again per request (the list is tens of kilobytes: serializing it took
 * ~3% of serve's CPU under a stream of cached tools/list calls).
 */
export function answerWithResult(id: string | number, resultJson: string): PlainAnswer {
  return jsonAnswer(200, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`);
}

/** Keys kept; the least recently used is dropped first. */
const MAX_KEYS = 2_000;

export function createToolListCache(): ToolListCache {
  const results = new Map<string, string>();
  return {
    get(key) {
      const found = results.get(key);
      if (found === undefined) return undefined;
      results.delete(key);
      results.set(key, found);
      return found;
    },
    set(key, result) {
      results.set(key, JSON.stringify(result));
      if (results.size > MAX_KEYS) results.delete(results.keys().next().value as string);
    },
  };
}

/** The id of a body that is one `tools/list` request for the first page, else null. */
export function toolsListRequestId(body: unknown): string | number | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const m = body as { method?: unknown; id?: unknown; params?: { cursor?: unknown } };
  if (m.method !== "tools/list" || m.params?.cursor !== undefined) return null;
  return typeof m.id === "string" || typeof m.id === "number" ? m.id : null;
}

/** The `result` of a JSON-RPC answer the SDK sent (JSON, or SSE with one message), or undefined. */
export async function answeredResult(response: Response): Promise<unknown> {
  if (response.status !== 200) return undefined;
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const json = type.includes("application/json")
    ? text
    : text
        .split("\n")
        .find((line) => line.startsWith("data: "))
        ?.slice(6);
  if (!json) return undefined;
  try {
    return (JSON.parse(json) as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}
