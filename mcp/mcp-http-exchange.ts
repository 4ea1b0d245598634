import { readRequestBody } from "@modelcontextprotocol/server";

/**
 * One HTTP request to `/mcp` as the handler reads it: a WHATWG Request (the Next route) or what
 * the node route read of node's own request (`serve`). Headers, method, URL and body are read
 * from it directly; a WHATWG Request is made of it only where the SDK's transport serves the
 * request. Building one (and a Response for the answer) per call cost ~20% of serve's CPU for a
 * `tools/list` the handler answers itself, from its cache.
 */
export interface McpHttpRequest {
  readonly method: string;
  /** Absolute: `http://host/mcp?faces=…`. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  /** Aborted when the client goes away before its answer is complete. */
  readonly signal: AbortSignal;
  /**
   * The body as the SDK's `readRequestBody` reads it: refused past `maxBytes` (by Content-Length
   * or by what arrives), otherwise decoded as UTF-8 the way its TextDecoder does. Once only.
   */
  readBody(maxBytes: number): Promise<{ tooLarge: true } | { tooLarge: false; text: string }>;
  /** This request as a WHATWG Request, its body `text` when given (else the body as it came, unread). */
  toRequest(text?: string): Request;
  /**
   * Puts `fields` on this request's access line (one line per request, not two); false, or
   * absent, where no access line of this process will carry them: log them on their own line.
   */
  addToAccessLine?(fields: Record<string, unknown>): boolean;
}

/** An answer the handler made itself (no stream): written at once, with no Response object. */
export interface PlainAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** null: no body at all (a 202, a 499), as the SDK's `new Response(null)`. */
  body: string | null;
}

export type McpAnswer = Response | PlainAnswer;

export function isPlainAnswer(answer: McpAnswer): answer is PlainAnswer {
  return !(answer instanceof Response);
}

/** A JSON answer of the handler's own. */
export function jsonAnswer(status: number, body: string, headers: Record<string, string> = {}): PlainAnswer {
  return { status, headers: { ...headers, "content-type": "application/json" }, body };
}

export function toResponse(answer: McpAnswer): Response {
  return isPlainAnswer(answer)
    ? new Response(answer.body, { status: answer.status, headers: answer.headers })
    : answer;
}

/** The Next route's Request, read through the same interface (its body by the SDK's own reader). */
export function exchangeOfRequest(request: Request): McpHttpRequest {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    signal: request.signal,
    readBody: (maxBytes) =>
      readRequestBody(request, maxBytes) as Promise<{ tooLarge: true } | { tooLarge: false; text: string }>,
    toRequest: (text) => (text === undefined ? request : new Request(request, { body: text })),
  };
}
