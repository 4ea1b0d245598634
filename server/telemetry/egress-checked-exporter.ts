import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { egressUrlRefusal } from "../egress/egress-fetch";
import { logger } from "../logger";

/** Where the OTLP/HTTP exporter sends traces, by the standard variables (the exporter's own rule). */
export function otlpTracesUrl(env: Record<string, string | undefined> = process.env): string | null {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, "")}/v1/traces` : null;
}

/**
 * The trace exporter under the one egress policy: before each batch leaves, the collector's URL
 * is checked like any other outbound request (scheme, credentials in it, refused names, every
 * address its name resolves to; loopback and private ranges only when the operator allows them
 * in SIGNPOST_EGRESS_ALLOW). A refused collector gets nothing; the refusal is logged once, and
 * the spans are dropped as a failed export.
 */
export function egressCheckedExporter(inner: SpanExporter, url: string): SpanExporter {
  let warned = false;
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return refuse("the endpoint is not a URL", done);
      }
      egressUrlRefusal(target).then(
        (refusal) => (refusal ? refuse(refusal, done) : inner.export(spans, done)),
        () => refuse("the endpoint's name did not resolve", done),
      );
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  function refuse(reason: string, done: (result: ExportResult) => void) {
    if (!warned) {
      warned = true;
      logger.warn({ egress: { reason, to: "OTLP traces endpoint" } }, "traces not exported: egress refused");
    }
    done({ code: ExportResultCode.FAILED, error: new Error("the address could not be reached") });
  }
}
