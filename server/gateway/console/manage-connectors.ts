import { z } from "zod";
import { CONNECTORS } from "../../connectors/connector-catalog";
import type { Db } from "../../db/client";
import { vaultCredentials } from "../connector-credentials";
import type { ConsoleContext } from "../console-session";
import { listSecrets, setSecret } from "../vault";
import { type ConsoleResult, fail, ok } from "./console-result";
import { recordConsoleAudit } from "./record-console-audit";

/** The secret each shipped connector declares; the vault may hold more, which are listed too. */
const KNOWN_SECRETS: Record<string, string[]> = Object.fromEntries(
  CONNECTORS.map((c) => [c.id, [c.secretName]]),
);

export type ConnectorView = {
  connector: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  secrets: { name: string; set: boolean; updatedAt: string | null }[];
};

export const connectorNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/);
export const secretNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/);
export const setSecretInputSchema = z.object({ value: z.string().min(1).max(4096) }).strict();
export const connectorSettingsInputSchema = z
  .object({
    baseUrl: z
      .string()
      .trim()
      .url()
      .max(300)
      .refine((u) => /^https?:\/\//.test(u), "http(s) only"),
    enabled: z.boolean().optional(),
  })
  .strict();

const known = (connector: string) => CONNECTORS.some((c) => c.id === connector);
const unknownConnector = (connector: string) => fail("not_found", `No connector ${connector}.`);

type SecretMeta = { connector: string; name: string; set?: boolean; updatedAt?: Date | string | null };

/** Each connector's non-secret settings and, per secret, only whether it is set and when it changed. */
export async function listConnectors(db: Db, ctx: ConsoleContext): Promise<ConnectorView[]> {
  const [configs, secrets] = await Promise.all([
    db.connectorConfig.findMany({ where: { tenantId: ctx.tenantId } }),
    listSecrets(db, ctx.tenantId) as Promise<SecretMeta[]>,
  ]);
  const names = new Set([
    ...Object.keys(KNOWN_SECRETS),
    ...configs.map((c) => c.connector),
    ...secrets.map((s) => s.connector),
  ]);
  return [...names].sort().map((connector) => {
    const config = configs.find((c) => c.connector === connector);
    const mine = secrets.filter((s) => s.connector === connector);
    const secretNames = new Set([...(KNOWN_SECRETS[connector] ?? []), ...mine.map((s) => s.name)]);
    return {
      connector,
      enabled: config?.enabled ?? true,
      settings: (config?.settings as Record<string, unknown> | undefined) ?? {},
      secrets: [...secretNames].sort().map((name) => {
        const meta = mine.find((s) => s.name === name);
        const updatedAt = meta?.updatedAt ? new Date(meta.updatedAt).toISOString() : null;
        return { name, set: Boolean(meta) && meta?.set !== false, updatedAt };
      }),
    };
  });
}

/** Replaces a secret (write-only): the value goes to the vault; the audit row names the secret, never its value. */
export async function replaceConnectorSecret(
  db: Db,
  ctx: ConsoleContext,
  connector: string,
  name: string,
  value: string,
): Promise<ConsoleResult<{ connector: string; name: string; updatedAt: string }>> {
  const startedAt = Date.now();
  if (!known(connector)) return unknownConnector(connector);
  await setSecret(db, { tenantId: ctx.tenantId, connector, name, value, updatedById: ctx.userId });
  await recordConsoleAudit(db, ctx, {
    operation: "secret.replaced",
    target: `config://${connector}`,
    arguments: { connector, name },
    outcome: "applied",
    startedAt,
  });
  return ok({ connector, name, updatedAt: new Date().toISOString() });
}

export async function updateConnectorSettings(
  db: Db,
  ctx: ConsoleContext,
  connector: string,
  input: z.infer<typeof connectorSettingsInputSchema>,
): Promise<ConsoleResult<{ connector: string }>> {
  const startedAt = Date.now();
  if (!known(connector)) return unknownConnector(connector);
  const existing = await db.connectorConfig.findFirst({ where: { tenantId: ctx.tenantId, connector } });
  const settings = { ...((existing?.settings as Record<string, unknown>) ?? {}), baseUrl: input.baseUrl };
  await db.connectorConfig.upsert({
    where: { tenantId_connector: { tenantId: ctx.tenantId, connector } },
    create: { tenantId: ctx.tenantId, connector, settings, enabled: input.enabled ?? true },
    update: { settings, ...(input.enabled === undefined ? {} : { enabled: input.enabled }) },
  });
  await recordConsoleAudit(db, ctx, {
    operation: "connector.settings_updated",
    target: `config://${connector}`,
    arguments: input,
    outcome: "applied",
    startedAt,
  });
  return ok({ connector });
}

export type ConnectionTest = {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  message: string;
  tenant?: string;
};

/**
 * "Test connection": calls the legacy system's authenticated health endpoint with the stored key,
 * server-side. Only ok/status/tenant come back; never the key or the raw response.
 */
export async function testConnectorConnection(
  db: Db,
  ctx: ConsoleContext,
  connector: string,
): Promise<ConsoleResult<ConnectionTest>> {
  const startedAt = Date.now();
  if (!known(connector)) return unknownConnector(connector);
  // The same resolver the adapters use: the vault's key and the connector's base URL, server-side only.
  const creds = await vaultCredentials(db)(ctx.tenantId, connector);
  let result: ConnectionTest;
  if (!creds) {
    result = { ok: false, status: null, latencyMs: 0, message: "No API key is set for this connector." };
  } else {
    try {
      const res = await fetch(new URL("/v1/health", creds.baseUrl), {
        headers: { authorization: `Bearer ${creds.apiKey}` },
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json().catch(() => null)) as { ok?: unknown; tenant?: unknown } | null;
      const tenant = typeof body?.tenant === "string" ? body.tenant : undefined;
      const good = res.ok && body?.ok === true;
      result = {
        ok: good,
        status: res.status,
        latencyMs: Date.now() - startedAt,
        message: good
          ? `Connected${tenant ? ` as tenant ${tenant}` : ""}.`
          : res.status === 401
            ? "The legacy system refused the key (401)."
            : `The legacy system answered ${res.status}.`,
        ...(tenant ? { tenant } : {}),
      };
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      result = {
        ok: false,
        status: null,
        latencyMs: Date.now() - startedAt,
        message: timedOut
          ? "The legacy system did not answer within 5 s."
          : "Could not reach the legacy system.",
      };
    }
  }
  await recordConsoleAudit(db, ctx, {
    operation: "connector.tested",
    target: `config://${connector}`,
    arguments: { connector },
    outcome: result.ok ? "applied" : "rejected",
    message: result.message,
    startedAt,
  });
  return ok(result);
}
