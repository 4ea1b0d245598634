import pino from "pino";
import { redactSecrets } from "./redact-secrets";

/** The levels LOG_LEVEL accepts (pino's), lowest first; `silent` turns logging off. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL as pino takes it: one of LOG_LEVELS (any case), else `info`. Start-up refuses others. */
export function logLevelFrom(value = process.env.LOG_LEVEL): LogLevel {
  const level = value?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level ?? "") ? (level as LogLevel) : "info";
}

function createLogger() {
  return pino(
    {
      level: logLevelFrom(),
      base: { svc: "signpost" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "password",
          "*.password",
          "apiKey",
          "*.apiKey",
          "key",
          "*.key",
          "authorization",
          "*.authorization",
          "headers.authorization",
          "*.headers.authorization",
          "cookie",
          "*.cookie",
          "*.headers.cookie",
          "value",
          "secret",
          "*.secret",
        ],
        censor: "[redacted]",
      },
      formatters: {
        log: (object) => redactSecrets(object) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === "string" ? redactSecrets(arg) : arg)) as Parameters<
              typeof method
            >,
          );
        },
      },
    },
    // Synchronous writes: a line is whole when the process exits right after it (a refused start),
    // and lines from the parts of one process never interleave. stdout by default; stderr where
    // stdout carries a protocol (the MCP stdio face sets SIGNPOST_LOG_STDERR=1 before anything logs).
    pino.destination({ dest: process.env.SIGNPOST_LOG_STDERR === "1" ? 2 : 1, sync: true }),
  );
}

// One logger per process, on globalThis: the Next.js bundle and the modules the HTTP server loads
// itself are separate copies of this file, and two pino instances on one descriptor could split
// each other's lines.
const holder = globalThis as typeof globalThis & { __signpostLogger?: ReturnType<typeof createLogger> };

/**
 * Structured JSON logs, one object per line. Secrets must never reach a log: the usual carriers
 * are redacted here as a last line of defence, not as the plan. `redact` only knows paths, so
 * every logged object also passes the audit's redaction (secret-looking values anywhere: a URI
 * with `?token=`, a card number in an argument); the message string too.
 */
holder.__signpostLogger ??= createLogger();
export const logger = holder.__signpostLogger;
