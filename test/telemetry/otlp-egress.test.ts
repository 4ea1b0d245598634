import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { egressCheckedExporter, otlpTracesUrl } from "@/server/telemetry/egress-checked-exporter";
import { allowEgressTo } from "../helpers/allow-egress";

/**
 * Issue 22: the OTLP trace exporter is an outbound request like any other, so it obeys the one
 * egress policy. A collector on loopback (refused unless an operator allows it) receives nothing;
 * once SIGNPOST_EGRESS_ALLOW names it, the same exporter delivers.
 */
let received = 0;
const collector = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
});
afterAll(() => new Promise<void>((resolve) => collector.close(() => resolve())));

async function someSpans() {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
  provider.getTracer("test").startSpan("a call").end();
  await provider.forceFlush();
  return memory.getFinishedSpans();
}

const exportOnce = (url: string, spans: Awaited<ReturnType<typeof someSpans>>) =>
  new Promise<ExportResult>((resolve) =>
    egressCheckedExporter(new OTLPTraceExporter({ url }), url).export(spans, resolve),
  );

it("reads the endpoint from the standard variables", () => {
  expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example/" })).toBe(
    "https://otel.example/v1/traces",
  );
  expect(
    otlpTracesUrl({
      OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/in",
    }),
  ).toBe("https://traces.example/in");
  expect(otlpTracesUrl({})).toBeNull();
});

it("refuses a collector on a refused host (loopback, a metadata address) and sends it nothing", async () => {
  const spans = await someSpans();
  const refused = await exportOnce(url, spans);
  expect(refused.code).toBe(ExportResultCode.FAILED);
  expect(received).toBe(0);
  const metadata = await exportOnce("http://169.254.169.254/v1/traces", spans);
  expect(metadata.code).toBe(ExportResultCode.FAILED);
});

it("delivers once the operator allows the collector's address", async () => {
  allowEgressTo(url);
  const result = await exportOnce(url, await someSpans());
  expect(result.code).toBe(ExportResultCode.SUCCESS);
  expect(received).toBe(1);
});
