import pino from "pino";
import { redactLogFields } from "./redact-log-fields";
import { redactSecrets, redactText } from "./redact-secrets";

/** The levels LOG_LEVEL accepts (pino's), lowest first; `silent` turns logging off. */
export const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** LOG_LEVEL as pino takes it: one of LOG_LEVELS (any case), else `info`. Start-up refuses others. */
export function logLevelFrom(value = process.env.LOG_LEVEL): LogLevel {
  const level = value?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level ?? "") ? (level as LogLevel) : "info";
}

function createLogger() {
  const root = pino(
    {
      level: logLevelFrom(),
      base: { svc: "signpost" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: {
        log: redactLogFields,
        // The base fields; a child's are redacted where it is made (below).
        bindings: redactLogFields,
      },
      serializers: {
        // The message as it is written, however it was made: the text given, format arguments
        // joined into it (`%s`, `%o`, `%j`), or the message pino takes from `logger.error(err)`.
        msg: (msg: unknown) => (typeof msg === "string" ? redactText(msg) : redactSecrets(msg)),
        // The fields' redaction already wrote an error as its fields (redactSecrets); pino's own
        // serializer would take that copy for an error again and call its type "Object".
        err: (err: unknown) => err,
      },
      hooks: {
        logMethod(args, method) {
          // Objects a format joins into the message (`%o`, `%j`) are redacted as logged fields
          // are (a credential-named field whatever its text) before they become text; the message
          // is then redacted whole. Errors stay errors: `%s` writes their message, redacted so.
          // In place: the array is pino's own for this call, and most lines have no such argument.
          const from = typeof args[0] === "object" || args[0] === undefined ? 2 : 1;
          for (let i = from; i < args.length; i++) {
            const arg: unknown = args[i];
            if (arg && typeof arg === "object" && !(arg instanceof Error)) args[i] = redactSecrets(arg);
          }
          method.apply(this, args);
        },
      },
    },
    // Synchronous writes: a line is whole when the process exits right after it (a refused start),
    // and lines from the parts of one process never interleave. stdout by default; stderr where
    // stdout carries a protocol (the MCP stdio face sets SIGNPOST_LOG_STDERR=1 before anything logs).
    pino.destination({ dest: process.env.SIGNPOST_LOG_STDERR === "1" ? 2 : 1, sync: true }),
  );
  // A child's fields are written on each of its lines as they were when it was made, and pino
  // writes them without the bindings formatter (it resets it for children): redacted here, once.
  // Children inherit this method, so a child's child is made the same way.
  const child = root.child;
  root.child = function (this: typeof root, bindings, options) {
    return child.call(this, redactLogFields(bindings), options);
  } as typeof root.child;
  return root;
}

// One logger per process, on globalThis: the Next.js bundle and the modules the HTTP server loads
// itself are separate copies of this file, and two pino instances on one descriptor could split
// each other's lines.
const holder = globalThis as typeof globalThis & { __signpostLogger?: ReturnType<typeof createLogger> };

/**
 * Structured JSON logs, one object per line. Secrets must never reach a log: the usual carriers
 * are redacted here as a last line of defence, not as the plan. Every logged object passes the
 * audit's redaction (secret-looking values anywhere: a URI with `?token=`, a card number in an
 * argument; an error's message, stack and causes) and the fixed credential fields
 * (redact-log-fields.ts); the message as written too, with whatever a format joined into it.
 */
holder.__signpostLogger ??= createLogger();
export const logger = holder.__signpostLogger;
