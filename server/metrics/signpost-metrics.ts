import client from "prom-client";

/** Latency buckets in seconds: from a cached read (5 ms) to a confirm that retried (10 s). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new client.Registry();
  // CPU, memory, event-loop lag, handles: the process's own, prefixed like ours.
  client.collectDefaultMetrics({ register: registry, prefix: "signpost_" });
  const registers = [registry];
  return {
    registry,
    toolCalls: new client.Counter({
      name: "signpost_tool_calls_total",
      help: "MCP tool calls by face, tool and outcome (applied, rejected, unknown, …; error for a protocol error)",
      labelNames: ["face", "tool", "outcome"] as const,
      registers,
    }),
    toolCallDuration: new client.Histogram({
      name: "signpost_tool_call_duration_seconds",
      help: "How long MCP tool calls took, by face and tool",
      labelNames: ["face", "tool"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    httpRequests: new client.Counter({
      name: "signpost_http_requests_total",
      help: "HTTP requests by method, route group and status",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpRequestDuration: new client.Histogram({
      name: "signpost_http_request_duration_seconds",
      help: "HTTP request latency by method and route group (to the end of the response)",
      labelNames: ["method", "route"] as const,
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    auditEvents: new client.Counter({
      name: "signpost_audit_events_total",
      help: "Audit rows written by this instance, by face and outcome",
      labelNames: ["face", "outcome"] as const,
      registers,
    }),
    rateLimited: new client.Counter({
      name: "signpost_rate_limited_calls_total",
      help: "/mcp calls refused by the per-agent-key call budget",
      registers,
    }),
    jobRuns: new client.Counter({
      name: "signpost_job_runs_total",
      help: "Background job runs on this instance by job and outcome (ok, failed)",
      labelNames: ["job", "outcome"] as const,
      registers,
    }),
    jobDuration: new client.Histogram({
      name: "signpost_job_duration_seconds",
      help: "How long background job runs took",
      labelNames: ["job"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
      registers,
    }),
    jobItems: new client.Counter({
      name: "signpost_job_items_total",
      help: "What background jobs did, by job and result (e.g. reconcile: applied, not_found; expire: expired; prune: audit_rows)",
      labelNames: ["job", "result"] as const,
      registers,
    }),
    monitorSubscribers: new client.Gauge({
      name: "signpost_monitor_subscribers",
      help: "Live monitor streams open on this instance",
      registers,
    }),
    effects: new client.Gauge({
      name: "signpost_effects",
      help: "Effect ledger rows by status, in the whole database (every instance reports the same: use max, not sum)",
      labelNames: ["status"] as const,
      registers,
    }),
    approvalsPending: new client.Gauge({
      name: "signpost_approvals_pending",
      help: "Approvals waiting for a person and not yet expired, in the whole database (use max across instances)",
      registers,
    }),
  };
}

export type SignpostMetrics = ReturnType<typeof createMetrics>;

// One registry per process, on globalThis: the Next.js bundle and the modules the HTTP server and
// the jobs load themselves are separate copies of this file, and all must count into one place.
const holder = globalThis as typeof globalThis & { __signpostMetrics?: SignpostMetrics };

/** This process's metrics (Prometheus, every name prefixed `signpost_`). */
export function signpostMetrics(): SignpostMetrics {
  holder.__signpostMetrics ??= createMetrics();
  return holder.__signpostMetrics;
}
