import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Db } from "../db/client";

/**
 * oidc-provider's storage on Signpost's database (OAuthRecord): codes, grants, refresh tokens,
 * interactions and sessions are shared by every instance on the same database, and a code
 * consumed on one is consumed on all. Expired rows are dropped as they are read and by
 * `pruneOAuthRecords`, so the table holds only what can still be used.
 */
export function prismaOAuthAdapter(db: Db) {
  return class PrismaOAuthAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return `${this.model}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const data = {
        model: this.model,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        accountId: payload.accountId ?? null,
        clientId: payload.clientId ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db.oAuthRecord.upsert({
        where: { key: this.key(id) },
        create: { key: this.key(id), ...data },
        update: data,
      });
    }

    private async read(where: { key: string } | { uid: string; model: string }) {
      const row =
        "key" in where
          ? await db.oAuthRecord.findUnique({ where })
          : await db.oAuthRecord.findFirst({ where });
      if (!row) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) {
        await db.oAuthRecord.deleteMany({ where: { key: row.key } });
        return undefined;
      }
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.read({ key: this.key(id) });
    }

    findByUid(uid: string) {
      return this.read({ uid, model: this.model });
    }

    async findByUserCode(): Promise<undefined> {
      // Device flow is not enabled.
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await db.oAuthRecord.updateMany({ where: { key: this.key(id) }, data: { consumedAt: new Date() } });
    }

    async destroy(id: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { key: this.key(id) } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { grantId } });
    }
  };
}

/** Drops every record past its expiry (run by the background jobs and before tests count rows). */
export async function pruneOAuthRecords(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.oAuthRecord.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/** Ends every grant a person gave one client: its codes, refresh tokens and grant are gone on every instance. */
export async function revokeOAuthGrants(db: Db, accountId: string, clientId: string): Promise<void> {
  const grants = await db.oAuthRecord.findMany({
    where: { accountId, clientId, grantId: { not: null } },
    select: { grantId: true },
  });
  const ids = [...new Set(grants.map((g) => g.grantId).filter((g): g is string => !!g))];
  await db.oAuthRecord.deleteMany({ where: { OR: [{ grantId: { in: ids } }, { accountId, clientId }] } });
}
