import { z } from "zod";

/** What one script run may use. Exceeding one ends the run with a typed refusal naming it. */
export interface ScriptLimits {
  /** Time spent running the script's own code (not waiting for its calls or a sandbox), ms. */
  cpuMs: number;
  /** The whole run from the request's arrival, waiting for a sandbox, calls and sleeps included, ms. */
  wallMs: number;
  /** The sandbox's heap, bytes (the engine's limit; the WebAssembly memory is capped just above it). */
  memoryBytes: number;
  /** Gateway calls (search, navigate, submit, the action primitives) one run may make. */
  maxCalls: number;
  /** The returned value, as JSON, bytes. */
  resultBytes: number;
  /** console output kept, bytes; the rest is counted, not kept. */
  logBytes: number;
}

const MIB = 1024 * 1024;

/**
 * Safe for a shared server: a runaway script costs about 2 s of one core (2.25 s at most, the
 * watchdog's grace) and about 80 MiB, once.
 */
export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = {
  cpuMs: 2_000,
  wallMs: 30_000,
  memoryBytes: 64 * MIB,
  maxCalls: 200,
  resultBytes: 64 * 1024,
  logBytes: 16 * 1024,
};

/**
 * What a tenant may set (`Tenant.scriptLimits`, JSON): each field optional, each bounded so that
 * no tenant's setting can take the server down (10 s of CPU, 256 MiB, 1,000 calls at most).
 */
export const tenantScriptLimitsSchema = z
  .object({
    cpuMs: z.number().int().min(10).max(10_000),
    wallMs: z.number().int().min(100).max(120_000),
    memoryBytes: z
      .number()
      .int()
      .min(8 * MIB)
      .max(256 * MIB),
    maxCalls: z.number().int().min(1).max(1_000),
    resultBytes: z
      .number()
      .int()
      .min(1024)
      .max(1 * MIB),
    logBytes: z
      .number()
      .int()
      .min(0)
      .max(256 * 1024),
  })
  .partial()
  .strict();

/**
 * A tenant's stored limits over the defaults. A stored value that does not parse is ignored as a
 * whole (the defaults apply) and reported, so a bad row never loosens a limit.
 */
export function resolveScriptLimits(stored: unknown): { limits: ScriptLimits; invalid: boolean } {
  if (stored === null || stored === undefined) return { limits: DEFAULT_SCRIPT_LIMITS, invalid: false };
  const parsed = tenantScriptLimitsSchema.safeParse(stored);
  if (!parsed.success) return { limits: DEFAULT_SCRIPT_LIMITS, invalid: true };
  return { limits: { ...DEFAULT_SCRIPT_LIMITS, ...parsed.data }, invalid: false };
}
