import pino from "pino";
import { redactSecrets } from "./gateway/redact-secrets";

/**
 * Structured JSON logs (one object per line on stdout). Secrets must never reach a log: the
 * usual carriers are redacted here as a last line of defence, not as the plan. `redact` only
 * knows paths, so every logged object also passes the audit's redaction (secret-looking values
 * anywhere: a URI with `?token=`, a card number in an argument); the message string too.
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
  formatters: {
    log: (object) => redactSecrets(object) as Record<string, unknown>,
  },
  hooks: {
    logMethod(args, method) {
      method.apply(
        this,
        args.map((arg) => (typeof arg === "string" ? redactSecrets(arg) : arg)) as Parameters<typeof method>,
      );
    },
  },
});

export type Logger = typeof logger;
