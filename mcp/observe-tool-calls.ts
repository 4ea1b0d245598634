import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import { inSpan, remoteParent } from "@/server/telemetry/tracing";
import { scrubVaultValues } from "@/server/vault-values";
import type { Face } from "./faces";

/** One finished MCP tool call, as the access log and the metrics see it: never its arguments. */
export interface ToolCallRecord {
  face: Face;
  tool: string;
  /** The typed outcome of the result (`applied`, `rejected`, …), `input_required`, or `error` (a throw). */
  outcome: string;
  latencyMs: number;
}

export type ToolCallObserver = (call: ToolCallRecord) => void;

/** The outcome a tool result carries: the structured outcome, else what its shape says. */
export function toolCallOutcome(result: unknown): string {
  const r = result as { structuredContent?: { outcome?: unknown }; isError?: boolean; resultType?: unknown };
  if (typeof r?.structuredContent?.outcome === "string") return r.structuredContent.outcome;
  if (r?.resultType === "task") return "task";
  if (r?.resultType === "input_required" || (r && "inputRequests" in r)) return "input_required";
  return r?.isError ? "error" : "ok";
}

/**
 * Wraps `server.registerTool` so every tool registered from now on reports each call to
 * `observe` (tool, outcome, latency) under the face `faceOf()` names at registration time, with
 * the call's own request context (whose caller the call was). One place for every face: the
 * action tools, the MCP App's tool and the browse tools; also where every result is scrubbed
 * of the vault's values.
 */
export function observeToolCalls(
  server: McpServer,
  observe: (call: ToolCallRecord, ctx: ServerContext | undefined) => void,
  faceOf: () => Face,
): void {
  const register = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  (server as { registerTool: unknown }).registerTool = (name: string, config: unknown, handler: unknown) => {
    const face = faceOf();
    const run = handler as (...args: unknown[]) => Promise<unknown>;
    return register(name, config, (...args: unknown[]) =>
      // The MCP call's span: a child of the trace context the request's `_meta` carries
      // (`traceparent`, MCP 2026-07-28), else of the HTTP request's span.
      inSpan(
        `mcp tools/call ${name}`,
        { "mcp.method.name": "tools/call", "mcp.tool.name": name, "signpost.face": face },
        () => observed(...args),
        { parent: parentOf(args) },
      ),
    );
    async function observed(...args: unknown[]): Promise<unknown> {
      const started = performance.now();
      // The handler's last argument is the request's context (the SDK passes it to every tool).
      const ctx = args.at(-1) as ServerContext | undefined;
      try {
        // Whatever a tool answers (pages, outcomes, script values) leaves without a vault value
        // in any encoding, whichever face or system put it there.
        const result = scrubVaultValues(await run(...args));
        observe(
          {
            face,
            tool: name,
            outcome: toolCallOutcome(result),
            latencyMs: performance.now() - started,
          },
          ctx,
        );
        return result;
      } catch (error) {
        observe({ face, tool: name, outcome: "error", latencyMs: performance.now() - started }, ctx);
        throw error;
      }
    }
  };
}

/** The trace context in the tool call's `_meta` (the handler's last argument carries the request), if any. */
function parentOf(args: unknown[]) {
  const meta = (
    args.at(-1) as { mcpReq?: { _meta?: { traceparent?: unknown; tracestate?: unknown } } } | undefined
  )?.mcpReq?._meta;
  return typeof meta?.traceparent === "string" ? remoteParent(meta) : undefined;
}
