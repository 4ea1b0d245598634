import { getDb } from "@/server/db/client";
import { collectStoreGauges } from "@/server/gateway/collect-store-gauges";
import { metricsAccessAllowed } from "@/server/gateway/metrics-access";
import { logger } from "@/server/logger";
import { signpostMetrics } from "@/server/metrics/signpost-metrics";

// Prometheus metrics of this instance (prom-client text format, every name `signpost_…`).
// Behind `Authorization: Bearer $SIGNPOST_METRICS_TOKEN` when that is set.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  if (!metricsAccessAllowed(request.headers.get("authorization")))
    return new Response("Send Authorization: Bearer <SIGNPOST_METRICS_TOKEN>.\n", {
      status: 401,
      headers: { "WWW-Authenticate": 'Bearer realm="signpost-metrics"', "cache-control": "no-store" },
    });
  const metrics = signpostMetrics();
  try {
    await collectStoreGauges(getDb(), metrics);
  } catch (error) {
    // The process's own metrics still answer while the database does not.
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "metrics: database gauges failed",
    );
  }
  return new Response(await metrics.registry.metrics(), {
    headers: { "content-type": metrics.registry.contentType, "cache-control": "no-store" },
  });
}
