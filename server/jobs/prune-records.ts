import type { Db } from "../db/client";
import { SIGN_IN_WINDOW_MS } from "../gateway/console-session";
import { pruneOAuthRecords } from "../oauth/prisma-oauth-adapter";

export type PruneOptions = {
  /** Audit rows older than this many days are deleted; 0 keeps them forever. */
  auditRetentionDays: number;
  now?: number;
  /** Rows deleted per statement: a long table is pruned in bites that never hold a lock for long. */
  batchSize?: number;
};

export type PruneReport = {
  nonces: number;
  auditRows: number;
  signInFailures: number;
  sessions: number;
  oauthRecords: number;
  /** Hosts' approval tasks past their keep time (MCP Tasks). */
  tasks: number;
  /** Per-person connect attempts (state and PKCE verifier) past their expiry, used or not. */
  connectAttempts: number;
};

/**
 * The prune job: what has outlived its use. Consumed requestState nonces past their expiry (a
 * replay of them is refused by the signature's own expiry by then), sign-in failures past the
 * throttle's window, expired console sessions, expired OAuth codes, grants, sessions and refresh
 * tokens, MCP approval tasks past their keep time, connect attempts past their expiry (their
 * state is refused by then anyway: deleting one answers a late callback the same way), and audit rows past SIGNPOST_AUDIT_RETENTION_DAYS.
 * Deleting what is already gone deletes nothing, so instances may run it together.
 * Audit numbering is unaffected: each tenant's counter keeps counting from where it was.
 */
export async function pruneRecords(db: Db, options: PruneOptions): Promise<PruneReport> {
  const now = new Date(options.now ?? Date.now());
  const batch = options.batchSize ?? 5_000;
  const nonces = await db.consumedNonce.deleteMany({ where: { expiresAt: { lt: now } } });
  const signInFailures = await db.signInFailure.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - SIGN_IN_WINDOW_MS) } },
  });
  const sessions = await db.session.deleteMany({ where: { expiresAt: { lt: now } } });
  const oauthRecords = await pruneOAuthRecords(db, now);
  const tasks = await db.mcpTask.deleteMany({ where: { expiresAt: { lt: now } } });
  const connectAttempts = await db.connectAttempt.deleteMany({ where: { expiresAt: { lt: now } } });
  let auditRows = 0;
  if (options.auditRetentionDays > 0) {
    const cutoff = new Date(now.getTime() - options.auditRetentionDays * 86_400_000);
    for (;;) {
      const ids = await db.auditEvent.findMany({
        where: { createdAt: { lt: cutoff } },
        select: { id: true },
        orderBy: { id: "asc" },
        take: batch,
      });
      if (ids.length === 0) break;
      const { count } = await db.auditEvent.deleteMany({ where: { id: { in: ids.map((r) => r.id) } } });
      auditRows += count;
      if (ids.length < batch) break;
    }
  }
  return {
    nonces: nonces.count,
    auditRows,
    signInFailures: signInFailures.count,
    sessions: sessions.count,
    oauthRecords,
    tasks: tasks.count,
    connectAttempts: connectAttempts.count,
  };
}
