import { connectors } from "../connectors/connector-registry";
import type { Db } from "../db/client";
import { committedMigrations } from "../db/database-state";
import type { DbProvider } from "../db/database-url";
import { egressFetch } from "../egress/egress-fetch";
import { logger } from "../logger";
import { baseUrlOf } from "./connector-credentials";
import { checkMasterKey } from "./master-key-check";

const TIMEOUT_MS = 2_000;

export type Check = { ok: boolean; latencyMs: number };
export type ConnectorHealth = {
  /** ok: every address its tenants use answered; degraded: some did not; unconfigured: no tenant uses it. */
  status: "ok" | "degraded" | "unconfigured";
  /** How many distinct addresses (across tenants) were probed, and how many answered. */
  endpoints: number;
  answering: number;
};
export type Readiness = {
  /** Whether this instance should get traffic: database, master key and migrations all ok. */
  ready: boolean;
  /** `ready` with every connector ok, `degraded` ready with a backend system down, `unready`. */
  status: "ready" | "degraded" | "unready";
  checks: { database: Check; master_key: Check; migrations: Check & { pending: number } };
  connectors: Record<string, ConnectorHealth>;
};

/** The first line of an error, with any URL's credentials masked: for the log, never the answer. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  return message.replace(/\/\/[^/@\s]*@/g, "//***@").slice(0, 200);
}

async function timed<T>(part: string, run: () => Promise<T>): Promise<{ check: Check; value?: T }> {
  const started = performance.now();
  try {
    const value = await Promise.race([
      run(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref(),
      ),
    ]);
    return { check: { ok: true, latencyMs: Math.round(performance.now() - started) }, value };
  } catch (error) {
    logger.warn({ check: part, err: reasonOf(error) }, `readiness: ${part} check failed`);
    return { check: { ok: false, latencyMs: Math.round(performance.now() - started) } };
  }
}

let committed: { key: string; names: string[] } | undefined;
/** Set once every committed migration was seen applied: this process's code never needs more. */
let allApplied: string | undefined;
/** When this instance's master key last opened the database's seal, per database. */
const keyOpened = new Map<Db, number>();
/**
 * How long a master key that opened the seal is taken as still opening it: the check decrypts
 * a stored value (a query and AES), and balancers probe every couple of seconds on every
 * instance; a wrong key is a start-up mistake, refused before serving (master-key-check.ts).
 */
const KEY_CHECK_FRESH_MS = 10_000;

/**
 * Whether this instance can serve (`/api/health/ready`): the database answers, this instance's
 * master key opens what the database was sealed with (else every connector call would fail), and
 * every committed migration is applied. Backend systems are reported per connector, as degraded
 * when one does not answer: that is someone else's outage, and restarting Signpost would not
 * end it. Read-only; answers name no host or reason (those go to the log).
 */
export async function checkReadiness(
  db: Db,
  options: { provider: DbProvider; root: string },
): Promise<Readiness> {
  // Unknown (-1) until the migrations table was read.
  let pending = -1;
  const [database, masterKey, migrations, connectors] = await Promise.all([
    timed("database", () => db.$queryRawUnsafe("SELECT 1")),
    timed("master key", async () => {
      if (Date.now() - (keyOpened.get(db) ?? Number.NEGATIVE_INFINITY) < KEY_CHECK_FRESH_MS) return;
      const result = await checkMasterKey(db, undefined, { seal: false });
      if (!result.ok) {
        keyOpened.delete(db);
        throw new Error(result.message);
      }
      keyOpened.set(db, Date.now());
    }),
    timed("migrations", async () => {
      const key = `${options.provider}:${options.root}`;
      // Applied migrations stay applied: once all were, the table is not read again.
      if (allApplied === key) {
        pending = 0;
        return;
      }
      if (committed?.key !== key)
        committed = { key, names: committedMigrations(options.provider, options.root) };
      const rows = await db.$queryRawUnsafe<{ name: string }[]>(
        "SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL",
      );
      const applied = new Set(rows.map((r) => r.name));
      pending = committed.names.filter((name) => !applied.has(name)).length;
      if (pending > 0) throw new Error(`${pending} migration(s) not applied`);
      allApplied = key;
    }),
    connectorHealth(db),
  ]);
  const ready = database.check.ok && masterKey.check.ok && migrations.check.ok;
  const degraded = Object.values(connectors).some((c) => c.status === "degraded");
  return {
    ready,
    status: !ready ? "unready" : degraded ? "degraded" : "ready",
    checks: {
      database: database.check,
      master_key: masterKey.check,
      migrations: { ...migrations.check, pending },
    },
    connectors,
  };
}

/** Each connector's backend systems: the distinct addresses its enabled tenant configs name. */
async function connectorHealth(db: Db): Promise<Record<string, ConnectorHealth>> {
  const configs = await db.connectorConfig
    .findMany({ where: { enabled: true }, select: { connector: true, settings: true } })
    .catch(() => []);
  const out: Record<string, ConnectorHealth> = {};
  await Promise.all(
    connectors()
      .filter((connector) => connector.system !== false)
      .map(async (connector) => {
        const urls = new Set(
          configs
            .filter((c) => c.connector === connector.id)
            .map((c) => baseUrlOf(c, connector))
            .filter((url): url is string => url !== null),
        );
        if (urls.size === 0) {
          out[connector.id] = { status: "unconfigured", endpoints: 0, answering: 0 };
          return;
        }
        const answers = await Promise.all(
          [...urls].map(async (base) => {
            const { check } = await timed(`connector ${connector.id}`, async () => {
              const res = await egressFetch(new URL(connector.healthPath, base), {
                signal: AbortSignal.timeout(TIMEOUT_MS),
                redirect: "manual",
              });
              if (!res.ok) throw new Error(`${connector.healthPath} answered ${res.status}`);
            });
            return check.ok;
          }),
        );
        const answering = answers.filter(Boolean).length;
        out[connector.id] = {
          status: answering === urls.size ? "ok" : "degraded",
          endpoints: urls.size,
          answering,
        };
      }),
  );
  return out;
}
