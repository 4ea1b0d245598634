import type { Db } from "../../db/client";
import { noteVaultValue } from "../../vault-values";
import { decryptSecret, encryptSecret, personTokenRef, type SecretRef } from "../vault";

/** Whose connection: one person of one tenant to one connector's system. */
export interface ConnectionRef {
  tenantId: string;
  userId: string;
  connector: string;
}

export interface ConnectionTokens {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: Date | null;
  scopes: string[];
}

type Sealed = { ciphertext: string; nonce: string; tag: string };

/**
 * The vault ref a token is sealed under: tenant, connector and the person are authenticated data,
 * so a sealed token copied to another person's (or tenant's) row does not open.
 */
function tokenRef(ref: ConnectionRef, kind: "access" | "refresh" | "verifier"): SecretRef {
  return personTokenRef(ref, kind);
}

export function sealToken(
  ref: ConnectionRef,
  kind: "access" | "refresh" | "verifier",
  value: string,
): string {
  noteVaultValue(value);
  return JSON.stringify(encryptSecret(tokenRef(ref, kind), value));
}

export function openToken(ref: ConnectionRef, kind: "access" | "refresh" | "verifier", text: string): string {
  const value = decryptSecret(tokenRef(ref, kind), JSON.parse(text) as Sealed);
  noteVaultValue(value);
  return value;
}

/** Stores (or replaces) a person's connection after a consent or a refresh. */
export async function saveConnection(db: Db, ref: ConnectionRef, tokens: ConnectionTokens) {
  const data = {
    accessToken: sealToken(ref, "access", tokens.accessToken),
    refreshToken: tokens.refreshToken ? sealToken(ref, "refresh", tokens.refreshToken) : null,
    expiresAt: tokens.expiresAt ?? null,
    scopes: tokens.scopes.join(" ").slice(0, 2000),
    refreshLeaseUntil: null,
  };
  return db.personConnection.upsert({
    where: { tenantId_userId_connector: ref },
    create: { ...ref, ...data },
    update: data,
  });
}

export function findConnection(db: Db, ref: ConnectionRef) {
  return db.personConnection.findUnique({ where: { tenantId_userId_connector: ref } });
}

/** Forgets a person's connection (refused upstream, disconnected, cut off). */
export async function dropConnection(db: Db, ref: ConnectionRef): Promise<boolean> {
  const { count } = await db.personConnection.deleteMany({ where: ref });
  return count > 0;
}

/** What a person (or an admin) may see of a connection: never a token. */
export interface ConnectionSummary {
  connector: string;
  userId: string;
  scopes: string[];
  since: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export function summarize(row: {
  connector: string;
  userId: string;
  scopes: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}): ConnectionSummary {
  return {
    connector: row.connector,
    userId: row.userId,
    scopes: row.scopes.split(" ").filter(Boolean),
    since: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

/** Every token the database holds, for scrubbing by value (vault-values.ts) in a process that has not opened them. */
