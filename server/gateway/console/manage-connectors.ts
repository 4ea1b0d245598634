import { z } from "zod";
import { MAX_SETTING_VALUE, settingValueProblem } from "../../connectors/openapi/setting-value-problem";
import type { AnyConnector, ConnectorSetting } from "../../connectors/sdk/define-connector";
import { PERSON_AUTH_SECRET } from "../../connectors/sdk/person-auth";
import { tenantConnectors } from "../../connectors/tenant-connectors";
import type { Db } from "../../db/client";
import { EGRESS_FAILURE } from "../../egress/egress-fetch";
import { baseUrlOf, ConnectorDisabledError, vaultCredentials } from "../connector-credentials";
import type { ConsoleContext } from "../console-session";
import { listSecrets, setSecret } from "../vault";
import { type ConsoleResult, fail, ok } from "./console-result";
import { recordConsoleAudit } from "./record-console-audit";

/** The secret each shipped connector declares; the vault may hold more, which are listed too. */
const declaredSecrets = (among: readonly AnyConnector[], connector: string) =>
  among.find((c) => c.id === connector)?.secrets.map((s) => s.name) ?? [];

export type ConnectorView = {
  connector: string;
  enabled: boolean;
  settings: Record<string, unknown>;
  /** Per secret: whether it is set, when it last changed and by whom (never its value). */
  secrets: { name: string; set: boolean; updatedAt: string | null; updatedBy: string | null }[];
  /** An imported connector's document: what a strict validator found wrong with it at import. */
  warnings?: string[];
  /** Non-secret values the connector sends with its requests, set here (current values in `settings`). */
  declaredSettings?: ConnectorSetting[];
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
      .refine((u) => /^https?:\/\//i.test(u), "http(s) only")
      // Credentials in the address would be shown in settings and audit rows: they belong in the vault.
      .refine((u) => {
        const url = parseUrl(u);
        return !url || (!url.username && !url.password);
      }, "no user name or password in the address; store credentials as secrets"),
    enabled: z.boolean().optional(),
    // The connector's declared settings (headers an imported API needs with every request).
    values: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/), z.string().max(MAX_SETTING_VALUE))
      .optional(),
  })
  .strict();

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** scheme://host:port, or null when the text is not a URL (an unreadable old value counts as another origin). */
function originOf(text: string): string | null {
  const url = parseUrl(text);
  return url && url.origin !== "null" ? url.origin : null;
}

const connectorOf = async (db: Db, tenantId: string, connector: string) =>
  (await tenantConnectors(db, tenantId)).find((c) => c.id === connector);
const unknownConnector = (connector: string) => fail("not_found", `No connector ${connector}.`);

type SecretMeta = {
  connector: string;
  name: string;
  set?: boolean;
  updatedAt?: Date | string | null;
  updatedById?: string | null;
};

/** The stored warnings of an import (a JSON array of lines); anything else reads as none. */
function importWarnings(stored: string | undefined): string[] {
  try {
    const value = JSON.parse(stored ?? "[]") as unknown;
    return Array.isArray(value) ? value.filter((w): w is string => typeof w === "string").slice(0, 20) : [];
  } catch {
    return [];
  }
}

/** Each connector's non-secret settings and, per secret, only whether it is set and when it changed. */
export async function listConnectors(db: Db, ctx: ConsoleContext): Promise<ConnectorView[]> {
  const [among, configs, secrets, imported] = await Promise.all([
    tenantConnectors(db, ctx.tenantId),
    db.connectorConfig.findMany({ where: { tenantId: ctx.tenantId } }),
    listSecrets(db, ctx.tenantId) as Promise<SecretMeta[]>,
    db.importedConnector.findMany({
      where: { tenantId: ctx.tenantId },
      select: { connector: true, warnings: true },
    }),
  ]);
  const editors = await db.user.findMany({
    where: {
      tenantId: ctx.tenantId,
      id: { in: secrets.flatMap((s) => (s.updatedById ? [s.updatedById] : [])) },
    },
    select: { id: true, name: true },
  });
  const editor = new Map(editors.map((u) => [u.id, u.name]));
  const names = new Set([
    ...among.filter((c) => c.system !== false).map((c) => c.id),
    ...configs.map((c) => c.connector),
    ...secrets.map((s) => s.connector),
  ]);
  return [...names].sort().map((connector) => {
    const config = configs.find((c) => c.connector === connector);
    const mine = secrets.filter((s) => s.connector === connector);
    const secretNames = new Set([...declaredSecrets(among, connector), ...mine.map((s) => s.name)]);
    const warnings = importWarnings(imported.find((i) => i.connector === connector)?.warnings);
    const declared = among.find((c) => c.id === connector)?.settings ?? [];
    return {
      ...(warnings.length ? { warnings } : {}),
      ...(declared.length ? { declaredSettings: declared } : {}),
      connector,
      enabled: config?.enabled ?? true,
      settings: (config?.settings as Record<string, unknown> | undefined) ?? {},
      secrets: [...secretNames].sort().map((name) => {
        const meta = mine.find((s) => s.name === name);
        const updatedAt = meta?.updatedAt ? new Date(meta.updatedAt).toISOString() : null;
        const updatedBy = meta?.updatedById ? (editor.get(meta.updatedById) ?? null) : null;
        return { name, set: Boolean(meta) && meta?.set !== false, updatedAt, updatedBy };
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
  if (!(await connectorOf(db, ctx.tenantId, connector))) return unknownConnector(connector);
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

export type ConnectorSettingsUpdate = {
  connector: string;
  baseUrl: string;
  enabled: boolean;
  /** True when the update moved the connector to another scheme/host/port. */
  originChanged: boolean;
  /** Names of the secrets deleted because the origin changed (never values). */
  secretsCleared: string[];
  message: string;
};

function clearedMessage(names: string[]): string {
  if (names.length === 0) return "";
  const what =
    names.length === 1 && names[0] === "api_key"
      ? "The API key was"
      : `The ${names.length === 1 ? "secret" : "secrets"} ${names.join(", ")} ${names.length === 1 ? "was" : "were"}`;
  return ` ${what} cleared because the address changed; enter ${names.length === 1 ? "it" : "them"} again for the new address.`;
}

/**
 * Saves a connector's settings. A stored secret is bound to the origin it was set for: when the
 * base URL's origin (scheme+host+port) changes, the connector's secrets are deleted in the same
 * transaction, so a key entered for one system is never sent to another address (an admin could
 * otherwise read a write-only key back by pointing the connector at a listener of their own).
 * The previous origin is the one the key was actually used with: the stored baseUrl, else the
 * default legacy URL. Keeping the origin (another path, toggling `enabled`) keeps the secrets.
 */
export async function updateConnectorSettings(
  db: Db,
  ctx: ConsoleContext,
  connector: string,
  input: z.infer<typeof connectorSettingsInputSchema>,
): Promise<ConsoleResult<ConnectorSettingsUpdate>> {
  const startedAt = Date.now();
  const def = await connectorOf(db, ctx.tenantId, connector);
  if (!def) return unknownConnector(connector);
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.values ?? {})) {
    if (!def.settings?.some((s) => s.name === name))
      return fail(
        "rejected",
        `${connector} has no setting ${name} (${def.settings?.map((s) => s.name).join(", ") || "it has none"}).`,
      );
    // An empty value clears it; anything else is sent as a header, so it is one line.
    const problem = value === "" ? null : settingValueProblem(value);
    if (problem) return fail("rejected", `${name} ${problem}.`);
    values[name] = value;
  }
  const { tenantId } = ctx;
  const saved = await db.$transaction(async (tx) => {
    const existing = await tx.connectorConfig.findFirst({ where: { tenantId, connector } });
    const previous = baseUrlOf(existing, def);
    const previousOrigin = previous === null ? null : originOf(previous);
    const originChanged = previousOrigin === null || previousOrigin !== originOf(input.baseUrl);
    let secretsCleared: string[] = [];
    if (originChanged) {
      const rows = await tx.secret.findMany({ where: { tenantId, connector }, select: { name: true } });
      secretsCleared = rows.map((r) => r.name).sort();
      // Every secret of the connector, not only the names just read: one written concurrently
      // was entered for the old address too.
      await tx.secret.deleteMany({ where: { tenantId, connector } });
    }
    const settings: Record<string, string> = {
      ...((existing?.settings as Record<string, string>) ?? {}),
      ...values,
      baseUrl: input.baseUrl,
    };
    for (const [name, value] of Object.entries(values)) if (value === "") delete settings[name];
    // The OAuth client secret of people's connections is bound to the origins it is sent to (the
    // token and revocation endpoints): moving either drops it, like a new base URL drops the rest.
    if (!originChanged && def.personAuth) {
      const before = (existing?.settings ?? {}) as Record<string, string>;
      const secretOrigins = (s: Record<string, string>) =>
        [
          s.oauth_token_url ?? def.personAuth?.tokenUrl,
          s.oauth_revocation_url ?? def.personAuth?.revocationUrl,
        ]
          .map((u) => (u ? originOf(u) : null))
          .join(" ");
      if (secretOrigins(before) !== secretOrigins(settings)) {
        const { count } = await tx.secret.deleteMany({
          where: { tenantId, connector, name: PERSON_AUTH_SECRET.name },
        });
        if (count) secretsCleared = [PERSON_AUTH_SECRET.name];
      }
    }
    const row = await tx.connectorConfig.upsert({
      where: { tenantId_connector: { tenantId, connector } },
      create: { tenantId, connector, settings, enabled: input.enabled ?? true },
      update: { settings, ...(input.enabled === undefined ? {} : { enabled: input.enabled }) },
    });
    return { originChanged, secretsCleared, enabled: row.enabled };
  });
  const message = `Settings saved.${clearedMessage(saved.secretsCleared)}`;
  await recordConsoleAudit(db, ctx, {
    operation: "connector.settings_updated",
    target: `config://${connector}`,
    arguments: {
      baseUrl: input.baseUrl,
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      ...(Object.keys(values).length ? { values } : {}),
      origin_changed: saved.originChanged,
      // Names only. (Not under a key that contains "secret": the audit writer would redact it.)
      cleared: saved.secretsCleared,
    },
    outcome: "applied",
    message,
    startedAt,
  });
  return ok({
    connector,
    baseUrl: input.baseUrl,
    enabled: saved.enabled,
    originChanged: saved.originChanged,
    secretsCleared: saved.secretsCleared,
    message,
  });
}

export type ConnectionTest = {
  ok: boolean;
  /** What happened, as a code: the page and the audit row need nothing from the remote body. */
  result: "connected" | "refused" | "unexpected_status" | "unreachable" | "no_key" | "disabled";
  /** The HTTP status the legacy system answered; null when no request was answered or sent. */
  status: number | null;
  latencyMs: number;
  message: string;
};

/**
 * "Test connection": calls the legacy system's authenticated health endpoint with the stored key,
 * server-side. Only a result code, the HTTP status and a fixed message come back: nothing of the
 * remote body, headers or the key. A disabled connector is not called at all.
 */
export async function testConnectorConnection(
  db: Db,
  ctx: ConsoleContext,
  connector: string,
): Promise<ConsoleResult<ConnectionTest>> {
  const startedAt = Date.now();
  const def = await connectorOf(db, ctx.tenantId, connector);
  if (!def) return unknownConnector(connector);
  const result = await probe(db, ctx.tenantId, def, startedAt);
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

async function probe(
  db: Db,
  tenantId: string,
  def: AnyConnector,
  startedAt: number,
): Promise<ConnectionTest> {
  const answer = (
    result: ConnectionTest["result"],
    status: number | null,
    message: string,
  ): ConnectionTest => ({
    ok: result === "connected",
    result,
    status,
    latencyMs: Date.now() - startedAt,
    message,
  });
  let creds: Awaited<ReturnType<ReturnType<typeof vaultCredentials>>>;
  try {
    // The same resolver the adapters use: the vault's secrets and the connector's base URL, server-side only.
    creds = await vaultCredentials(db)({ tenantId }, def);
  } catch (error) {
    if (error instanceof ConnectorDisabledError)
      return answer(
        "disabled",
        null,
        "This connector is disabled by an admin; enable it to test the connection.",
      );
    throw error;
  }
  if (!creds) return answer("no_key", null, "No API key is set for this connector.");
  // A refused address, a closed port, a timeout and a lost answer read the same (no port
  // scanning through this button); the egress log says which.
  const unreachable = () => answer("unreachable", null, `Could not reach the system: ${EGRESS_FAILURE}.`);
  try {
    const res = await def.checkConnection(creds, AbortSignal.timeout(5000));
    if (res.ok) return answer("connected", res.status, "Connected.");
    if (res.status === 0) return unreachable();
    if (res.status === 401 || res.status === 403)
      return answer("refused", res.status, `The system refused the key (${res.status}).`);
    return answer("unexpected_status", res.status, `The system answered ${res.status}.`);
  } catch {
    return unreachable();
  }
}
