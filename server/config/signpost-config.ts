import { existsSync } from "node:fs";
import { z } from "zod";
import { EgressConfigError, parseEgressAllow } from "../egress/egress-allow-list";
import { smtpUrlSchema } from "../gateway/mailer";
import { trustProxySchema } from "../gateway/request-peer";
import { parseMasterKey } from "../gateway/vault";
import { LOG_LEVELS } from "../logger";

/**
 * Every environment variable a Signpost server reads, checked once at start (`npx signpost
 * serve`, `npm start`) so a typo stops the start with a sentence naming the variable, what it
 * holds and what it should hold, instead of a default silently taking its place. The modules
 * that read them at run time stay lenient (a test or a tool may set none); this is the gate.
 */

const blankAsUnset = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
const unset = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsUnset, schema);

const wholeNumber = (name: string, what: string, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${name} must be a whole number: ${what}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}: ${what}`);

const httpUrl = (name: string, what: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return ["http:", "https:"].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `${name} must be an http:// or https:// URL: ${what}`);

const flag = (name: string, what: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^(0|1|true|false|on|off)$/, `${name} must be 1 or 0: ${what}`)
    .transform((v) => v === "1" || v === "true" || v === "on");

/** The variables of every Signpost server process (production and demo alike). */
export const serverConfigSchema = z.object({
  PORT: unset(wholeNumber("PORT", "the port of the console, its API and /mcp", 1, 65_535).default(3000)),
  HOST: unset(z.string().trim().default("127.0.0.1")),
  SIGNPOST_DATA_DIR: unset(z.string().default("./data")),
  DATABASE_URL: unset(
    z
      .string()
      .trim()
      .regex(
        /^(file:.+|postgres(ql)?:\/\/.+)$/,
        "DATABASE_URL must be a file: URL (SQLite) or a postgresql:// URL (PostgreSQL)",
      )
      .optional(),
  ),
  SIGNPOST_MASTER_KEY: unset(
    z
      .string()
      .refine((value) => {
        try {
          parseMasterKey(value);
          return true;
        } catch {
          return false;
        }
      }, "SIGNPOST_MASTER_KEY must be 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)")
      .optional(),
  ),
  SIGNPOST_PUBLIC_URL: unset(
    httpUrl("SIGNPOST_PUBLIC_URL", "where people open the console (approval links)").optional(),
  ),
  SIGNPOST_ALLOWED_HOSTS: unset(
    z
      .string()
      .regex(
        /^\s*[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*\s*$/i,
        "SIGNPOST_ALLOWED_HOSTS must be host names separated by commas (e.g. signpost.example.com,10.0.0.5)",
      )
      .optional(),
  ),
  SIGNPOST_LEGACY_URL: unset(
    httpUrl("SIGNPOST_LEGACY_URL", "the default address of connectors whose settings name none").optional(),
  ),
  SIGNPOST_EGRESS_ALLOW: unset(
    z
      .string()
      .superRefine((value, ctx) => {
        try {
          parseEgressAllow(value);
        } catch (error) {
          if (!(error instanceof EgressConfigError)) throw error;
          ctx.addIssue({
            code: "custom",
            message: `${error.message}; SIGNPOST_EGRESS_ALLOW lists the hosts, addresses and CIDR ranges (each optionally with :port) the server may reach although they are loopback, private or link-local`,
          });
        }
      })
      .optional(),
  ),
  SIGNPOST_TRUST_PROXY: trustProxySchema,
  SIGNPOST_SMTP_URL: unset(smtpUrlSchema.optional()),
  SIGNPOST_MAIL_FROM: unset(
    z
      .string()
      .trim()
      .regex(
        /^([^<>@\s][^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/,
        "SIGNPOST_MAIL_FROM must be an email address, alone or as `Name <address>` (the sender of notification emails)",
      )
      .optional(),
  ),
  SIGNPOST_AGENT_RATE_LIMIT: unset(
    wholeNumber(
      "SIGNPOST_AGENT_RATE_LIMIT",
      "calls per minute per agent key on /mcp, 0 turns the limit off",
      0,
      1_000_000,
    ).default(600),
  ),
  SIGNPOST_REDIS_URL: unset(
    z
      .string()
      .trim()
      .regex(
        /^rediss?:\/\/.+/,
        "SIGNPOST_REDIS_URL must be a redis:// or rediss:// URL (the shared store of the call budget)",
      )
      .optional(),
  ),
  SIGNPOST_MONITOR_POLL_MS: unset(
    wholeNumber(
      "SIGNPOST_MONITOR_POLL_MS",
      "milliseconds between the live monitor's safety re-reads, at least 100",
      100,
      3_600_000,
    ).default(2000),
  ),
  SIGNPOST_METRICS_TOKEN: unset(
    z
      .string()
      .min(16, "SIGNPOST_METRICS_TOKEN must be at least 16 characters (it guards /metrics)")
      .regex(/^\S+$/, "SIGNPOST_METRICS_TOKEN must not contain spaces")
      .optional(),
  ),
  SIGNPOST_JOBS: unset(flag("SIGNPOST_JOBS", "whether this instance runs the background jobs").default(true)),
  SIGNPOST_JOBS_INTERVAL_S: unset(
    wholeNumber(
      "SIGNPOST_JOBS_INTERVAL_S",
      "seconds between runs of the reconcile and expiry jobs",
      1,
      86_400,
    ).default(30),
  ),
  SIGNPOST_AUDIT_RETENTION_DAYS: unset(
    wholeNumber(
      "SIGNPOST_AUDIT_RETENTION_DAYS",
      "days audit rows are kept, 0 keeps them forever",
      0,
      36_500,
    ).default(90),
  ),
  SIGNPOST_DRAIN_S: unset(
    wholeNumber(
      "SIGNPOST_DRAIN_S",
      "seconds after SIGTERM during which readiness answers 503 while requests are still served",
      0,
      3_600,
    ).default(10),
  ),
  /** SQLite only: how a commit reaches the disk (server/db/client.ts says what each costs and keeps). */
  SIGNPOST_SQLITE_SYNC: unset(
    z.enum(["full", "normal"], "SIGNPOST_SQLITE_SYNC must be full (the default) or normal").default("full"),
  ),
  SIGNPOST_SHUTDOWN_GRACE_S: unset(
    wholeNumber(
      "SIGNPOST_SHUTDOWN_GRACE_S",
      "seconds in-flight calls get to finish after SIGTERM",
      0,
      3_600,
    ).default(20),
  ),
  SIGNPOST_REQUEST_STATE_KEY: unset(
    z
      .string()
      .min(
        32,
        "SIGNPOST_REQUEST_STATE_KEY must be at least 32 characters (or unset: derived from the master key)",
      )
      .optional(),
  ),
  SIGNPOST_CONNECTORS_DIR: unset(z.string().trim().max(4000).optional()),
  SIGNPOST_OAUTH_KEY_GENERATION: unset(
    wholeNumber(
      "SIGNPOST_OAUTH_KEY_GENERATION",
      "the OAuth signing key generation (raise it to rotate the keys)",
      1,
      1_000_000,
    ).default(1),
  ),
  SIGNPOST_EGRESS_CA_FILE: unset(
    z
      .string()
      .trim()
      .max(4000)
      .refine(
        (file) => existsSync(file),
        "SIGNPOST_EGRESS_CA_FILE must name a readable PEM file of certificate authorities",
      )
      .optional(),
  ),
  /** The rest of the SSO settings are read with it (server/oauth/console-sso.ts) and named there. */
  SIGNPOST_SSO_ISSUER: unset(
    z.url("SIGNPOST_SSO_ISSUER must be the URL of your OpenID provider (its issuer)").optional(),
  ),
  /** Skip the build check (a prepared image; `npm start` sets it for its child, having built). */
  SIGNPOST_SKIP_BUILD: unset(
    flag("SIGNPOST_SKIP_BUILD", "whether to skip checking the console build").default(false),
  ),
  /**
   * Traces over OTLP/HTTP (server/telemetry/start-tracing.ts); the exporter reads the other
   * standard OTEL_* variables (headers, service name, timeout) itself. Unset: no tracing at all.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: unset(
    z
      .url(
        "OTEL_EXPORTER_OTLP_ENDPOINT must be the URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318",
      )
      .optional(),
  ),
  LOG_LEVEL: unset(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(LOG_LEVELS, { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}` }))
      .default("info"),
  ),
});

export type ServerConfig = z.infer<typeof serverConfigSchema>;

/** `npm start` (the demo): the server's variables plus the demo's own. */
export const demoConfigSchema = serverConfigSchema.extend({
  LEGACY_PORT: unset(
    wholeNumber("LEGACY_PORT", "the port of the demo legacy service", 1, 65_535).default(4010),
  ),
  SIGNPOST_DEMO_PASSWORD: unset(
    z.string().min(8, "SIGNPOST_DEMO_PASSWORD must be at least 8 characters").optional(),
  ),
  LEGACY_LOG: unset(z.enum(["0", "1"], { error: "LEGACY_LOG must be 0 or 1" }).default("0")),
});

/** Variables whose values never appear in an error message. */
const SECRET = new Set([
  "SIGNPOST_MASTER_KEY",
  "SIGNPOST_METRICS_TOKEN",
  "SIGNPOST_REQUEST_STATE_KEY",
  "SIGNPOST_DEMO_PASSWORD",
]);

/** A value as an error message may show it: secrets hidden, URL passwords masked, long ones cut. */
function shown(name: string, value: unknown): string {
  if (typeof value !== "string") return "";
  if (SECRET.has(name)) return ` (set, ${value.length} characters; not shown)`;
  const masked = value.replace(/\/\/([^/@\s:]*):[^/@\s]*@/, "//$1:***@");
  return ` (it is ${JSON.stringify(masked.length > 80 ? `${masked.slice(0, 80)}…` : masked)})`;
}

export type ConfigResult<T> = { ok: true; config: T } | { ok: false; errors: string[] };

/**
 * Checks `env` against `schema`; every problem is one line: the variable, what it holds now
 * (secrets withheld) and what it must be.
 */
export function checkConfig<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): ConfigResult<z.infer<S>> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return { ok: true, config: parsed.data };
  const errors = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? "");
    const message = issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
    return `${message}${shown(name, env[name])}`;
  });
  return { ok: false, errors: [...new Set(errors)] };
}

/** The server variables of `env`, checked. */
export function checkServerConfig(env: Record<string, string | undefined> = process.env) {
  return checkConfig(serverConfigSchema, env);
}
