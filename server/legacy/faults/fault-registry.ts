import { randomBytes } from "node:crypto";
import { z } from "zod";

export const faultModes = ["latency", "error", "down", "commit_then_timeout", "noop_success"] as const;

export const faultInputSchema = z.strictObject({
  match: z
    .string()
    .min(1)
    .describe(
      'Method and path pattern, e.g. "POST /v1/payments", "* /v1/orders/*/refunds", "GET /v1/**"; `*` matches one segment, `**` the rest; no method means any',
    ),
  mode: z.enum(faultModes),
  count: z.number().int().min(1).optional().describe("apply to the next N matching calls only"),
  latency_ms: z
    .number()
    .int()
    .min(0)
    .max(600_000)
    .optional()
    .describe(
      "latency: added delay; commit_then_timeout: how long the response is held before the socket is dropped (default 30000)",
    ),
  error_rate: z.number().min(0).max(1).optional().describe("error: probability of a 503 (default 1)"),
});
export type FaultInput = z.infer<typeof faultInputSchema>;

export const faultSchema = z.strictObject({
  id: z.string(),
  match: z.string(),
  mode: z.enum(faultModes),
  remaining: z.number().int().nullable().describe("calls left; null = until cleared"),
  latency_ms: z.number().int().nullable(),
  error_rate: z.number().nullable(),
  created_at: z.string(),
});
export type Fault = z.infer<typeof faultSchema>;

function patternMatches(pattern: string, method: string, path: string): boolean {
  const parts = pattern.trim().split(/\s+/);
  const [m, p] = parts.length >= 2 ? [parts[0] ?? "*", parts[1] ?? "/**"] : ["*", parts[0] ?? "/**"];
  if (m !== "*" && m.toUpperCase() !== method) return false;
  if (p === "*" || p === "**") return true;
  const want = p.split("/");
  const got = path.split("/");
  for (let i = 0; i < want.length; i++) {
    const seg = want[i] ?? "";
    if (seg === "**") return true;
    if (i >= got.length) return false;
    if (seg === "*" || (seg.startsWith("{") && seg.endsWith("}"))) continue;
    if (seg !== got[i]) return false;
  }
  return want.length === got.length;
}

/**
 * In-memory faults of one server instance. `take` returns the faults that hit a call and
 * counts them down, so "the next N calls" is exact even under concurrency
 * (Node runs `take` to completion before another request can).
 */
export class FaultRegistry {
  private faults: Fault[] = [];

  add(input: FaultInput): Fault {
    const fault: Fault = {
      id: `flt_${randomBytes(4).toString("hex")}`,
      match: input.match,
      mode: input.mode,
      remaining: input.count ?? null,
      latency_ms: input.latency_ms ?? null,
      error_rate: input.error_rate ?? null,
      created_at: new Date().toISOString(),
    };
    this.faults.push(fault);
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  clear(): void {
    this.faults = [];
  }

  take(method: string, path: string): Fault[] {
    const hits: Fault[] = [];
    for (const fault of this.faults) {
      if (!patternMatches(fault.match, method, path)) continue;
      hits.push({ ...fault });
      if (fault.remaining !== null) fault.remaining -= 1;
    }
    this.faults = this.faults.filter((f) => f.remaining === null || f.remaining > 0);
    return hits;
  }
}
