import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "../db/client";
import { dataDir, type Env } from "../db/database-url";
import { noteVaultValue, primeVaultValues } from "../vault-values";

/**
 * The secret vault: connector credentials encrypted with AES-256-GCM under the master key.
 * The database holds ciphertext, nonce and tag only. Each write uses a fresh 96-bit nonce, and
 * tenant/connector/name are bound as additional authenticated data, so a ciphertext copied to
 * another tenant's (or another secret's) row fails to decrypt instead of leaking.
 */

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const AAD_VERSION = "signpost.secret.v1";

/** Anything with the Secret model: a client or an interactive transaction. */
export type SecretStore = Pick<Db, "secret">;

export type SecretRef = { tenantId: string; connector: string; name: string };
export type SecretMetadata = {
  connector: string;
  name: string;
  set: true;
  updatedAt: Date;
  updatedById: string | null;
};

/** Parses SIGNPOST_MASTER_KEY: 32 bytes as 64 hex characters or as base64. */
export function parseMasterKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const key = Buffer.from(value, value.includes("-") || value.includes("_") ? "base64url" : "base64");
    if (key.length === KEY_BYTES) return key;
  }
  throw new Error("SIGNPOST_MASTER_KEY must be 32 bytes, as 64 hex characters or base64");
}

/** The path of the generated master key when SIGNPOST_MASTER_KEY is not set. */
export function masterKeyFile(env: Env = process.env): string {
  return join(/* turbopackIgnore: true */ dataDir(env), "master.key");
}

let cached: { source: string; key: Buffer } | undefined;

/**
 * The master key: SIGNPOST_MASTER_KEY, else `<data dir>/master.key`, created (mode 0600) on
 * first use. Losing it makes every stored secret unreadable: back it up with the data dir.
 */
export function masterKey(env: Env = process.env): Buffer {
  const fromEnv = env.SIGNPOST_MASTER_KEY?.trim();
  const source = fromEnv ? `env:${fromEnv}` : `file:${masterKeyFile(env)}`;
  if (cached?.source === source) return cached.key;
  let key: Buffer;
  if (fromEnv) {
    key = parseMasterKey(fromEnv);
  } else {
    const file = masterKeyFile(env);
    if (!existsSync(file)) {
      mkdirSync(dataDir(env), { recursive: true });
      // "wx": if two processes race on first start, one wins and the other reads its key.
      try {
        writeFileSync(file, `${randomBytes(KEY_BYTES).toString("base64")}\n`, { mode: 0o600, flag: "wx" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      chmodSync(file, 0o600);
    }
    key = parseMasterKey(readFileSync(file, "utf8"));
  }
  cached = { source, key };
  return key;
}

function aad({ tenantId, connector, name }: SecretRef): Buffer {
  return Buffer.from(JSON.stringify([AAD_VERSION, tenantId, connector, name]));
}

export function encryptSecret(ref: SecretRef, value: string, key: Buffer = masterKey()) {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad(ref));
  const ciphertext = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
  return {
    ciphertext: ciphertext.toString("base64"),
    nonce: nonce.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
  };
}

/** Throws when the row was tampered with, moved to another ref, or the key is wrong. */
export function decryptSecret(
  ref: SecretRef,
  stored: { ciphertext: string; nonce: string; tag: string },
  key: Buffer = masterKey(),
): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(stored.nonce, "base64"));
  decipher.setAAD(aad(ref));
  decipher.setAuthTag(Buffer.from(stored.tag, "base64"));
  return Buffer.concat([
    decipher.update(Buffer.from(stored.ciphertext, "base64")),
    decipher.final(),
  ]).toString("utf8");
}

/** Stores (or replaces) a secret. Returns metadata only, never the value. */
export async function setSecret(
  db: SecretStore,
  input: SecretRef & { value: string; updatedById?: string | null },
): Promise<SecretMetadata> {
  const { tenantId, connector, name, value } = input;
  noteVaultValue(value);
  const sealed = encryptSecret({ tenantId, connector, name }, value);
  const row = await db.secret.upsert({
    where: { tenantId_connector_name: { tenantId, connector, name } },
    create: { tenantId, connector, name, ...sealed, updatedById: input.updatedById ?? null },
    update: { ...sealed, updatedById: input.updatedById ?? null },
  });
  return { connector, name, set: true, updatedAt: row.updatedAt, updatedById: row.updatedById };
}

/**
 * The plain value of a secret, or null when none is set. Server-internal ONLY: connector
 * adapters call it to authenticate upstream. Never return it from an API, a tool or a log.
 */
export async function readSecret(db: SecretStore, ref: SecretRef): Promise<string | null> {
  const row = await db.secret.findUnique({
    where: { tenantId_connector_name: { tenantId: ref.tenantId, connector: ref.connector, name: ref.name } },
  });
  if (!row) return null;
  const value = decryptSecret(ref, row);
  noteVaultValue(value);
  return value;
}

/**
 * Every stored value that opens with this key, for scrubbing by value (vault-values.ts); rows
 * that do not open are skipped (the master-key check reports them).
 */
export async function storedSecretValues(db: SecretStore): Promise<string[]> {
  const rows = await db.secret.findMany({ take: 2_000, orderBy: { updatedAt: "desc" } });
  const values: string[] = [];
  for (const row of rows) {
    try {
      values.push(decryptSecret(row, row));
    } catch {
      // another key's row
    }
  }
  return values;
}

/** Notes every stored value once per database handle (see vault-values.ts). */
export function primeVault(db: SecretStore): Promise<void> {
  return primeVaultValues(db, async () => {
    const values = await storedSecretValues(db);
    // People's upstream tokens too (sealed by the same key, per person: see personTokenRef).
    if ("personConnection" in db) values.push(...(await storedConnectionTokens(db as unknown as Db)));
    return values;
  });
}

/** Where a person's upstream token of one connector is sealed (bound to tenant, person and connector). */
export function personTokenRef(
  ref: { tenantId: string; userId: string; connector: string },
  kind: "access" | "refresh" | "verifier",
): SecretRef {
  return { tenantId: ref.tenantId, connector: ref.connector, name: `person:${ref.userId}:${kind}` };
}

type Sealed = { ciphertext: string; nonce: string; tag: string };

/** The newest people's tokens that open with this key, for scrubbing by value. */
async function storedConnectionTokens(db: Pick<Db, "personConnection">): Promise<string[]> {
  const rows = await db.personConnection.findMany({ take: 2_000, orderBy: { updatedAt: "desc" } });
  const out: string[] = [];
  for (const row of rows) {
    try {
      out.push(decryptSecret(personTokenRef(row, "access"), JSON.parse(row.accessToken) as Sealed));
      if (row.refreshToken)
        out.push(decryptSecret(personTokenRef(row, "refresh"), JSON.parse(row.refreshToken) as Sealed));
    } catch {
      // another key's row
    }
  }
  return out;
}

/** Which secrets a tenant has: names and timestamps, never values. */
export async function listSecrets(db: SecretStore, tenantId: string): Promise<SecretMetadata[]> {
  const rows = await db.secret.findMany({
    where: { tenantId },
    select: { connector: true, name: true, updatedAt: true, updatedById: true },
    orderBy: [{ connector: "asc" }, { name: "asc" }],
  });
  return rows.map((row) => ({ ...row, set: true as const }));
}
