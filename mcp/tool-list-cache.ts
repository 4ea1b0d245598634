import { isPlainAnswer, jsonAnswer, type McpAnswer, type PlainAnswer } from "./mcp-http-exchange";

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
 * ~3% of serve's CPU under a stream of cached tools/list calls). Its members in the order the
 * SDK's own answer has them (result, jsonrpc, id), so a kept answer is the SDK's byte for byte.
 */
export function answerWithResult(id: string | number, resultJson: string): PlainAnswer {
  return jsonAnswer(200, `{"result":${resultJson},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
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

/** Request headers the SDK's answer to a `tools/list` reads (Accept: 406 on the 2025 leg; the rest: version checks). */
const ANSWER_HEADERS = ["accept", "mcp-protocol-version", "mcp-method", "mcp-name"];

/**
 * A body that is one `tools/list` request for the first page: its id, and what a kept answer is
 * keyed by besides the caller — the message with its id left out, and the request headers the
 * SDK's answer reads. A later request is answered from the cache only when it is this same
 * request in everything but its id: one the SDK has already checked and answered 200 for
 * (a message without `jsonrpc`, an envelope that does not match its header, an Accept the 2025
 * transport refuses are never kept, so never answered from here either). Else null.
 */
export function toolsListRequest(
  body: unknown,
  headers: { get(name: string): string | null },
): { id: string | number; shape: string } | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return null;
  const m = body as { method?: unknown; id?: unknown; params?: { cursor?: unknown } };
  if (m.method !== "tools/list" || m.params?.cursor !== undefined) return null;
  if (typeof m.id !== "string" && typeof m.id !== "number") return null;
  const sent = ANSWER_HEADERS.map((name) => headers.get(name) ?? "").join("\n");
  return { id: m.id, shape: `${sent}\n${JSON.stringify({ ...m, id: 0 })}` };
}

/**
 * The `result` of a JSON answer the SDK sent, or undefined. An answer it streamed (SSE: a
 * request that asked for progress) is not kept: a kept answer is always given as JSON, so only
 * requests the SDK answers in JSON are answered from the cache.
 */
export async function answeredResult(answer: McpAnswer): Promise<unknown> {
  if (answer.status !== 200) return undefined;
  const plain = isPlainAnswer(answer);
  const type = plain ? answer.headers["content-type"] : answer.headers.get("content-type");
  if (!(type ?? "").includes("application/json")) return undefined;
  try {
    const text = plain ? answer.body : await answer.clone().text();
    return (JSON.parse(text ?? "") as { result?: unknown }).result;
  } catch {
    return undefined;
  }
}
