import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

/**
 * Signpost's spans (HTTP request, MCP call, gateway stages, database queries, connector HTTP
 * calls). Through the OpenTelemetry API only: until start-tracing.ts registers an SDK (when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set) the API's tracer is a no-op, so a span costs a function
 * call and nothing is recorded or sent.
 */
const tracer = () => trace.getTracer("signpost");

export { SpanKind };

/** The API's own no-op provider: the delegate of a proxy no SDK was registered on. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
/** What `fn` is handed while tracing is off: records nothing, like the no-op tracer's spans. */
const NOT_RECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * True until an SDK registers a tracer provider (start-tracing.ts, or a test's in-memory one).
 * Then `inSpan` calls its function directly: the no-op tracer's span, the context switch around
 * it and Next.js's wrapper of every tracer (which looks up its async storage per span) cost
 * ~2% of serve's CPU per MCP call for spans nobody records.
 */
function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_PROVIDER;
}

/** Runs `fn` inside a span named `name` (a child of the active one, or of `parent`); ends it however `fn` ends. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: { parent?: Context; kind?: SpanKind } = {},
): Promise<T> {
  if (tracingOff()) return fn(NOT_RECORDED);
  return tracer().startActiveSpan(
    name,
    { attributes, kind: options.kind ?? SpanKind.INTERNAL },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message?.slice(0, 200) });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** The W3C trace context a caller sent (`traceparent`, `tracestate`), as a parent; the root when none. */
export function remoteParent(carrier: { traceparent?: unknown; tracestate?: unknown }): Context {
  const fields: Record<string, string> = {};
  if (typeof carrier.traceparent === "string") fields.traceparent = carrier.traceparent;
  if (typeof carrier.tracestate === "string") fields.tracestate = carrier.tracestate;
  return fields.traceparent ? propagation.extract(ROOT_CONTEXT, fields) : ROOT_CONTEXT;
}

/** `traceparent`/`tracestate` of the active span, to send on with an outgoing request (none when not tracing). */
export function outgoingTraceHeaders(): Record<string, string> {
  const fields: Record<string, string> = {};
  propagation.inject(context.active(), fields);
  return fields;
}

/** Whether a span is being recorded right now (spans cost nothing to skip when not). */
export function tracingActive(): boolean {
  return trace.getActiveSpan()?.isRecording() ?? false;
}
