import { randomBytes } from "node:crypto";
import { z } from "zod";
import { createLegacyServer } from "./create-legacy-server";
import { defaultLegacyApiKeys } from "./default-legacy-api-keys";

const env = z
  .object({
    LEGACY_PORT: z.coerce.number().int().min(0).max(65_535).default(4010),
    LEGACY_HOST: z.string().default("127.0.0.1"),
    LEGACY_DB: z.string().default("./data/legacy.sqlite"),
    LEGACY_ADMIN_KEY: z.string().min(8).optional(),
    LEGACY_API_KEYS: z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw === "") return { ...defaultLegacyApiKeys };
        try {
          return z
            .strictObject({ acme: z.string().min(8), globex: z.string().min(8) })
            .parse(JSON.parse(raw));
        } catch {
          ctx.addIssue({
            code: "custom",
            message: 'LEGACY_API_KEYS must be JSON {"acme": "...", "globex": "..."}',
          });
          return z.NEVER;
        }
      }),
    LEGACY_LOG: z.enum(["0", "1"]).default("1"),
  })
  .parse(process.env);

// Its store holds the tenants' API keys in plain text: owner-only files (0600), also when it runs
// on its own rather than under `npm start` (which already sets this umask for its children).
process.umask(0o077);

// Without a configured admin key, fault injection still works for whoever reads this process's output.
const adminKey = env.LEGACY_ADMIN_KEY ?? randomBytes(16).toString("hex");

const server = await createLegacyServer({
  dbPath: env.LEGACY_DB,
  port: env.LEGACY_PORT,
  host: env.LEGACY_HOST,
  apiKeys: env.LEGACY_API_KEYS,
  adminKey,
  onRequest:
    env.LEGACY_LOG === "1"
      ? (entry) =>
          process.stdout.write(
            `${JSON.stringify({ svc: "legacy", time: new Date().toISOString(), ...entry })}\n`,
          )
      : undefined,
});
process.stdout.write(
  `${JSON.stringify({ svc: "legacy", msg: "listening", url: server.url, db: env.LEGACY_DB, ...(env.LEGACY_ADMIN_KEY ? {} : { generatedAdminKey: adminKey }) })}\n`,
);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void server.close().then(() => {
    process.stdout.write(`${JSON.stringify({ svc: "legacy", event: "stopped", msg: "stopped" })}\n`);
    process.exit(0);
  });
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
// Started by `npm start` (with an IPC channel): if that parent dies without stopping us, stop too.
if (process.send) process.on("disconnect", stop);
