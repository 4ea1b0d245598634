import {
  isInputRequiredResult,
  type McpServer,
  type McpServerOptions,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";

/**
 * The SDK's Server (2.4.0) as far as the steps below use it: JavaScript members that its typings
 * keep private. Each is named where it is used.
 */
interface ServerInternals {
  _requestHandlers: Map<string, (request: unknown, ctx: unknown) => Promise<unknown>>;
  _customSchemaRequestMethods: Set<string>;
  _wrapHandler(method: string, handler: (request: unknown, ctx: unknown) => unknown): unknown;
  _negotiatedWireCodec(): {
    era: string;
    validateRequest(
      method: string,
      raw: unknown,
    ): { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
  };
  _invokeInputRequiredCapableHandler(
    method: string,
    handler: (request: unknown, ctx: unknown) => Promise<unknown>,
    request: unknown,
    ctx: unknown,
  ): Promise<unknown>;
  assertRequestHandlerCapability(method: string): void;
  setRequestHandler(method: string, handler: unknown, more?: unknown): void;
}

/**
 * The wire codecs (the SDK's eras) whose `tools/call` result check the tests compare with: a
 * later one is checked by the SDK until it is compared too.
 */
const CHECKED_ERAS = new Set(["2025-11-25", "2026-07-28"]);

/**
 * What a server's options must say for `leanToolCalls`: the `tools` capability present as a key
 * but not yet set, so the McpServer registers its `tools/call` handler at the first tool (after
 * `leanToolCalls` ran) rather than in its constructor. It sets the capability then, in the same
 * place among the others and to the same value as it would have in the constructor.
 */
export function leanToolCallCapabilities<C extends NonNullable<McpServerOptions["capabilities"]>>(
  capabilities: C,
): C {
  return { ...capabilities, tools: undefined };
}

const CALL_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * A `tools/call` request the SDK's wire schema for it accepts, told without running it (~30 µs):
 * params of a tool name and, if any, arguments that are a plain object (the schema's record of
 * anything), nothing else — no `_meta`, no task — and no `__proto__` member, which a copy would
 * not keep as a member. False means "ask the schema".
 */
export function isPlainToolCall(request: unknown): boolean {
  if (!request || typeof request !== "object") return false;
  for (const member in request) if (!CALL_MEMBERS.has(member)) return false;
  const params = (request as { params?: unknown }).params;
  if (!params || typeof params !== "object" || Object.getPrototypeOf(params) !== Object.prototype)
    return false;
  for (const member in params) if (member !== "name" && member !== "arguments") return false;
  const p = params as { name?: unknown; arguments?: unknown };
  if (typeof p.name !== "string") return false;
  if (p.arguments === undefined) return true;
  const args = p.arguments;
  return (
    !!args &&
    typeof args === "object" &&
    Object.getPrototypeOf(args) === Object.prototype &&
    !Object.hasOwn(args, "__proto__")
  );
}

/**
 * A result the SDK's result check (its wire schema for `tools/call`: a loose object of `_meta`,
 * `content`, `structuredContent`, `isError`) would return unchanged: text blocks only (`type`, `text`, in that order), an
 * object or nothing as structured content, a boolean or nothing as the error flag, no `_meta`
 * and nothing else, members in the schema's order. That is what our reads return. Anything else
 * (a result with `_meta`, whose members the check would reorder; a task; images) is checked by
 * the SDK as before.
 */
function passesResultCheckUnchanged(result: unknown): boolean {
  if (!result || typeof result !== "object" || Array.isArray(result)) return false;
  const members = Object.keys(result);
  const order = ["content", "structuredContent", "isError"];
  let at = 0;
  for (const member of members) {
    while (at < order.length && order[at] !== member) at++;
    if (at === order.length) return false;
  }
  const r = result as Record<string, unknown>;
  if (!Array.isArray(r.content)) return false;
  for (const block of r.content as unknown[]) {
    if (!block || typeof block !== "object" || Array.isArray(block)) return false;
    const keys = Object.keys(block);
    const b = block as Record<string, unknown>;
    if (keys.length !== 2 || keys[0] !== "type" || keys[1] !== "text") return false;
    if (b.type !== "text" || typeof b.text !== "string") return false;
  }
  const sc = r.structuredContent;
  if (sc !== undefined && (!sc || typeof sc !== "object" || Array.isArray(sc))) return false;
  if (sc !== undefined && Object.getPrototypeOf(sc) !== Object.prototype) return false;
  return r.isError === undefined || typeof r.isError === "boolean";
}

/**
 * `tools/call` on this server without the SDK's repeated checks. The SDK validates each call's
 * request twice with its wire schema (zod) — in its `tools/call` wrapper, then again in the
 * handler it registered, on the same raw request — and then the result our own tool built (~80
 * µs a call together, ~3% of serve's CPU per read). Here the request is validated once, where
 * the SDK's wrapper does it, with its schema and its very refusal (a plain call, isPlainToolCall,
 * is one the schema accepts), and the handler is given what that validation returned, as the SDK
 * gives it (for a plain call, the request, of which the schema returns a copy). A result the SDK's check would return unchanged
 * (passesResultCheckUnchanged: what our reads return) is sent as it is; every other result still
 * passes the SDK's own checks. Tool arguments are untouched: the SDK never checked
 * them against our schemas (the gateway does, strictly), so what an agent may send is exactly
 * what it was. `test/mcp/lean-tool-calls.test.ts` proves the answers are a stock server's.
 *
 * Must run before the first `registerTool`, on a server built with `leanToolCallCapabilities`.
 */
export function leanToolCalls(server: McpServer): void {
  const inner = server.server as unknown as ServerInternals;
  const register = inner.setRequestHandler.bind(inner);
  const sdkWrap = inner._wrapHandler.bind(inner);
  inner.setRequestHandler = (method: string, handler: unknown, more?: unknown) => {
    if (method !== "tools/call" || typeof handler !== "function" || more !== undefined) {
      register(method, handler, more);
      return;
    }
    // As Protocol.setRequestHandler registers a spec method's handler, with its one validation here.
    const call = handler as (request: unknown, ctx: unknown) => unknown;
    inner.assertRequestHandlerCapability(method);
    inner._customSchemaRequestMethods.delete(method);
    inner._requestHandlers.set(method, async (request, ctx) => {
      // The SDK wrapper's check and refusal (its Server._wrapHandler for tools/call); a plain call
      // is one its schema accepts, and would only copy.
      const validated = isPlainToolCall(request)
        ? { ok: true as const, value: request }
        : inner._negotiatedWireCodec().validateRequest(method, request);
      if (!validated.ok)
        throw new ProtocolError(
          validated.reason === "not-in-era"
            ? ProtocolErrorCode.InternalError
            : ProtocolErrorCode.InvalidParams,
          validated.reason === "not-in-era"
            ? "No wire schema for tools/call in the resolved era"
            : `Invalid tools/call request: ${validated.message}`,
        );
      const result = await inner._invokeInputRequiredCapableHandler(
        method,
        async (_request, innerCtx) => call(validated.value, innerCtx),
        request,
        ctx,
      );
      if (isInputRequiredResult(result)) return result;
      if (passesResultCheckUnchanged(result) && CHECKED_ERAS.has(inner._negotiatedWireCodec().era))
        return result;
      // Anything else: the SDK's own wrapper around a handler that gives this result.
      const checked = sdkWrap(method, async () => result) as (r: unknown, c: unknown) => Promise<unknown>;
      return checked(request, ctx);
    });
  };
}
