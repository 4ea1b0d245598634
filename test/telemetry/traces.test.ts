import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import { createDb, type Db } from "@/server/db/client";
import { egressFetch } from "@/server/egress/egress-fetch";
import { startTracing } from "@/server/telemetry/start-tracing";
import { inSpan } from "@/server/telemetry/tracing";
import { tracingConfigured } from "@/server/telemetry/tracing-configured";
import { createWorld, type World } from "../gateway/gateway-world";
import { allowEgressTo } from "../helpers/allow-egress";

/**
 * Issue 22: one MCP call as a trace — the HTTP request (a child of the caller's `traceparent`
 * header), the MCP call (a child of the `traceparent` in the request's `_meta`), each gateway
 * stage, the database queries and the connector's HTTP call below it — recorded by the SDK into
 * an in-memory exporter; and the trace context sent on to the system a connector calls.
 */
const exporter = new InMemorySpanExporter();
let tracing: ReturnType<typeof startTracing>;
let w: World;
let db: Db;
let mcp: SignpostMcp;

const HTTP_TRACE = "0af7651916cd43dd8448eb211c80319c";
const HTTP_PARENT = "b7ad6b7169203331";
const MCP_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const MCP_PARENT = "00f067aa0ba902b7";

const parentOf = (s: ReadableSpan) =>
  (s as ReadableSpan & { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId;

beforeAll(async () => {
  tracing = startTracing({ processor: new SimpleSpanProcessor(exporter) });
  w = await createWorld("sqlite");
  allowEgressTo(w.legacy.url);
  db = createDb(w.database.url, { trace: true });
  mcp = createSignpostMcp({ db, publicUrl: "http://localhost:3000", callsPerMinute: 0 });
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await db?.$disconnect();
  await w?.close();
  await tracing?.shutdown();
});

it("is off unless an OTLP endpoint is set", () => {
  expect(tracingConfigured({})).toBe(false);
  expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
  expect(startTracing({ env: {} })).toBeNull();
});

it("traces one get_context from the HTTP request down to the query and the connector call", async () => {
  exporter.reset();
  const response = await mcp.handle(
    new Request("http://localhost:3000/mcp", {
      method: "POST",
      headers: {
        authorization: `Bearer ${w.keys.alice}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        host: "localhost:3000",
        "x-request-id": "req-trace-test-1",
        traceparent: `00-${HTTP_TRACE}-${HTTP_PARENT}-01`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "get_context",
          arguments: { entity: "order", entity_id: "ord_paid" },
          _meta: { traceparent: `00-${MCP_TRACE}-${MCP_PARENT}-01` },
        },
      }),
    }),
  );
  expect(response.status).toBe(200);
  expect(await response.text()).toContain("applied"); // the call runs while its answer streams
  const spans = exporter.getFinishedSpans();
  const named = (name: string) => spans.filter((s) => s.name === name);

  const [http] = named("POST /mcp");
  expect(http?.spanContext().traceId).toBe(HTTP_TRACE);
  expect(parentOf(http as ReadableSpan)).toBe(HTTP_PARENT);
  expect(http?.attributes["signpost.request_id"]).toBe("req-trace-test-1");
  expect(http?.attributes["http.response.status_code"]).toBe(200);
  const [identify] = named("signpost.identify");
  expect(parentOf(identify as ReadableSpan)).toBe(http?.spanContext().spanId);

  const [call] = named("mcp tools/call get_context");
  expect(call?.spanContext().traceId).toBe(MCP_TRACE);
  expect(parentOf(call as ReadableSpan)).toBe(MCP_PARENT);
  expect(call?.attributes["signpost.outcome"]).toBe("applied");

  // Every stage of the gateway is in the call's trace, each under the call or under a stage of it.
  const inCall = spans.filter((s) => s.spanContext().traceId === MCP_TRACE);
  const byId = new Map(inCall.map((s) => [s.spanContext().spanId, s]));
  const underCall = (s: ReadableSpan): boolean => {
    for (let p = parentOf(s); p; p = byId.get(p) ? parentOf(byId.get(p) as ReadableSpan) : undefined)
      if (p === call?.spanContext().spanId) return true;
    return false;
  };
  for (const stage of [
    "signpost.validate",
    "signpost.authorize",
    "signpost.run",
    "signpost.audit",
    "signpost.publish",
  ]) {
    const [span] = inCall.filter((s) => s.name === stage);
    expect(span, stage).toBeDefined();
    expect(parentOf(span as ReadableSpan), stage).toBe(call?.spanContext().spanId);
  }
  const queries = inCall.filter((s) => s.name.startsWith("db "));
  expect(queries.length).toBeGreaterThan(0);
  expect(queries.every(underCall)).toBe(true);
  expect(queries.some((q) => q.name === "db AuditEvent.create" || q.name.startsWith("db AuditEvent"))).toBe(
    true,
  );
  const [connector] = inCall.filter((s) => s.name === "HTTP GET");
  expect(connector?.attributes["http.response.status_code"]).toBe(200);
  const run = inCall.find((s) => s.name === "signpost.run");
  let up = parentOf(connector as ReadableSpan);
  while (up && up !== run?.spanContext().spanId) up = parentOf(byId.get(up) as ReadableSpan);
  expect(up).toBe(run?.spanContext().spanId);
}, 60_000);

it("sends the trace context on to the system a connector calls", async () => {
  let received: string | undefined;
  const server = createServer((req, res) => {
    received = req.headers.traceparent as string | undefined;
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  allowEgressTo(url);
  try {
    const traceId = await inSpan("outer", {}, async (span) => {
      await (await egressFetch(url)).text();
      return span.spanContext().traceId;
    });
    expect(received).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    const client = exporter
      .getFinishedSpans()
      .find((s) => s.name === "HTTP GET" && s.spanContext().traceId === traceId);
    expect(received?.split("-")[2]).toBe(client?.spanContext().spanId);
  } finally {
    server.close();
  }
});
