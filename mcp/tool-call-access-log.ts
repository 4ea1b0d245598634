import type { TrustedContext } from "@/server/gateway/trusted-context";
import { logger } from "@/server/logger";
import { signpostMetrics } from "@/server/metrics/signpost-metrics";
import type { McpHttpRequest } from "./mcp-http-exchange";
import type { ToolCallObserver } from "./observe-tool-calls";

/**
 * The log line of one MCP tool call, and its metrics: tool, outcome, latency, the agent's key
 * prefix and the request id. Never arguments or results: they can carry what a person typed.
 * The fields go on the HTTP request's access line where the process writes one (serve: one line
 * per call, its redaction walked once), the call's latency as `tool_latency_ms` beside the
 * request's; else (the Next route, a batch's second call) on a line of their own.
 */
export function toolCallAccessLog(
  context: TrustedContext,
  request?: Pick<McpHttpRequest, "addToAccessLine">,
): ToolCallObserver {
  const metrics = signpostMetrics();
  return (call) => {
    metrics.toolCalls.inc({ face: call.face, tool: call.tool, outcome: call.outcome });
    metrics.toolCallDuration.observe({ face: call.face, tool: call.tool }, call.latencyMs / 1000);
    const fields = {
      event: "mcp.tool_call",
      face: call.face,
      tool: call.tool,
      outcome: call.outcome,
      agent: context.agentKeyPrefix ?? null,
      tenant: context.tenantId,
    };
    const latency = Math.round(call.latencyMs * 10) / 10;
    if (request?.addToAccessLine?.({ ...fields, tool_latency_ms: latency })) return;
    logger.info({ ...fields, latency_ms: latency, request_id: context.requestId ?? null }, "mcp tool call");
  };
}
