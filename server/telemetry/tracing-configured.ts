/**
 * Whether the environment asks for traces (the standard OTLP variables). On its own so that
 * what asks (the database client, every process) does not load the OpenTelemetry SDK and its
 * exporter, which start-tracing.ts imports only where tracing is on.
 */
export function tracingConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
