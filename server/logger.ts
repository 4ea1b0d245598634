import pino from "pino";

/**
 * Structured JSON logs (one object per line on stdout). Secrets must never reach a log: the
 * usual carriers are redacted here as a last line of defence, not as the plan.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
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
      "value",
      "secret",
      "*.secret",
    ],
    censor: "[redacted]",
  },
});

export type Logger = typeof logger;
