import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { egressCheckedExporter, otlpTracesUrl } from "./egress-checked-exporter";
import { tracingConfigured } from "./tracing-configured";

/**
 * Registers the OpenTelemetry SDK for this process: spans exported over OTLP/HTTP in batches to
 * OTEL_EXPORTER_OTLP_ENDPOINT (the exporter reads the standard OTEL_* variables itself: headers,
 * timeout, service name), W3C trace context, async context across awaits. Does nothing and
 * returns null when no endpoint is set: tracing is then off and free. The collector is reached
 * only where the egress policy allows (egress-checked-exporter.ts). `processor` replaces the
 * exporter (tests use an in-memory one).
 */
export function startTracing(
  options: { env?: Record<string, string | undefined>; processor?: SpanProcessor } = {},
): { provider: NodeTracerProvider; shutdown(): Promise<void> } | null {
  if (!options.processor && !tracingConfigured(options.env)) return null;
  const provider = new NodeTracerProvider({
    spanProcessors: [
      options.processor ??
        new BatchSpanProcessor(
          egressCheckedExporter(new OTLPTraceExporter(), otlpTracesUrl(options.env) ?? ""),
        ),
    ],
  });
  provider.register();
  return { provider, shutdown: () => provider.shutdown() };
}
