import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";
import { inSpan, SpanKind } from "../telemetry/tracing";
import { type Db, type DbDriver, driverOfDb } from "./client";

/**
 * The statements every MCP call runs (the tenant row with its config stamp, the audit row with its
 * tenant's next number), on the database driver's own prepared statements rather than through
 * Prisma: through Prisma each cost 0.5–1 ms of client CPU for ~0.2 ms of SQL, and its SQLite
 * adapter prepared every statement again. Here each is prepared once per connection
 * (better-sqlite3) or named once per pooled connection (pg), on the connection Prisma itself
 * opened, and told to the client's query listener like Prisma's own.
 */

/**
 * What an MCP call reads of its tenant every time: name, script limits and the config stamp; and
 * of its agent, the stamp of its applied actions (null: no agent, or none of this tenant's).
 */
export interface TenantRow {
  name: string;
  scriptLimits: unknown;
  configVersion: number;
  appliedActionsVersion: number | null;
}

export type AuditEventRow = Awaited<ReturnType<Db["auditEvent"]["create"]>>;
/** An audit row as written: everything but what the database assigns (id, number, time). */
export type AuditRowData = Omit<AuditEventRow, "id" | "seq" | "createdAt" | "arguments"> & {
  arguments: object;
};

export interface PreparedStatements {
  /** The tenant's row, with `agentId`'s applied-actions stamp when that agent is the tenant's. */
  tenantRow(tenantId: string, agentId?: string): Promise<TenantRow | null>;
  /**
   * Inserts the rows, each numbered with its tenant's next number in the order given (gapless per
   * tenant, committed in order: the counter row, or SQLite's one writer, is locked until the rows
   * commit), and resolves only once they are committed. On PostgreSQL the audit channel
   * (`channel`) is then rung, best effort and not waited for: a failed or late notify never fails
   * or delays the rows.
   */
  insertAuditRows(rows: AuditRowData[], channel: string): Promise<AuditEventRow[]>;
}

const AUDIT_COLUMNS = [
  "tenantId",
  "agentId",
  "userId",
  "face",
  "operation",
  "target",
  "capability",
  "arguments",
  "decision",
  "outcome",
  "message",
  "latencyMs",
  "actionId",
  "actionKey",
  "requestId",
] as const;

const made = new WeakMap<DbDriver, PreparedStatements>();

/** The prepared statements of a client made by `createDb` (throws for any other object). */
export function preparedStatements(db: Db): PreparedStatements {
  const driver = driverOfDb(db);
  if (!driver) throw new Error("prepared statements need a client made by createDb");
  const known = made.get(driver);
  if (known) return known;
  const connected = async () => {
    if (!driver.adapter) await db.$connect();
    if (!driver.adapter) throw new Error("the database client opened no connection");
    return driver.adapter;
  };
  const statements = (driver.provider === "postgres" ? postgresStatements : sqliteStatements)(
    connected,
    driver,
  );
  made.set(driver, statements);
  return statements;
}

/** Runs `run` in a client span named like Prisma's query spans, when the client traces its queries. */
function traced<T>(driver: DbDriver, name: string, run: () => Promise<T>): Promise<T> {
  if (!driver.trace) return run();
  const system = driver.provider === "postgres" ? "postgresql" : "sqlite";
  return inSpan(`db ${name}`, { "db.system.name": system }, run, { kind: SpanKind.CLIENT });
}

function told(driver: DbDriver, query: string, started: number) {
  driver.onQuery?.({ query, durationMs: performance.now() - started });
}

/**
 * The tenant row, with the calling agent's applied-actions stamp as a scalar subquery: one
 * statement, and a tenant row even with no agent (or another tenant's). Placeholders per driver.
 */
const TENANT_ROW = (agentId: string, tenantId: string) =>
  `SELECT "name", "scriptLimits", "configVersion", (SELECT "appliedActionsVersion" FROM "Agent"
    WHERE "Agent"."id" = ${agentId} AND "Agent"."tenantId" = "Tenant"."id") AS "appliedActionsVersion"
  FROM "Tenant" WHERE "id" = ${tenantId}`;

// ---- SQLite ----------------------------------------------------------------------------------

const SQLITE = {
  // Its parameters in order of appearance: the agent, then the tenant.
  tenant: TENANT_ROW("?", "?"),
  begin: "BEGIN IMMEDIATE",
  commit: "COMMIT",
  rollback: "ROLLBACK",
  // Numbered in the statement: the tenant's last number + 1, and a trigger moves the counter to
  // the row's number (prisma/sqlite/…_sqlite_audit_counter_trigger). SQLite has one writer and
  // the statement holds the write lock from its start, so no other row can take the same number.
  audit: `INSERT INTO "AuditEvent" (${AUDIT_COLUMNS.map((c) => `"${c}"`).join(", ")}, "seq", "createdAt")
    VALUES (${AUDIT_COLUMNS.map(() => "?").join(", ")},
      COALESCE((SELECT "seq" FROM "AuditCounter" WHERE "tenantId" = ?), 0) + 1, ?)
    RETURNING "id", "seq"`,
} as const;

type SqliteStatements = { -readonly [K in keyof typeof SQLITE]: BetterSqlite3.Statement };
const sqlitePrepared = new WeakMap<object, SqliteStatements>();

/** The statements of one better-sqlite3 connection, prepared on its first use. */
function sqliteConnection(adapter: object): { client: BetterSqlite3.Database; s: SqliteStatements } {
  const client = (adapter as { client?: BetterSqlite3.Database }).client;
  if (!client || typeof client.prepare !== "function")
    throw new Error("the SQLite driver adapter no longer exposes its better-sqlite3 connection");
  let s = sqlitePrepared.get(adapter);
  if (!s) {
    const prepared = {} as SqliteStatements;
    // Prisma's adapter turns on safe integers for the connection; these numbers are small.
    for (const key of Object.keys(SQLITE) as Array<keyof typeof SQLITE>)
      prepared[key] = client.prepare(SQLITE[key]).safeIntegers(false);
    s = prepared;
    sqlitePrepared.set(adapter, s);
  }
  return { client, s };
}

function sqliteStatements(
  connected: () => Promise<NonNullable<DbDriver["adapter"]>>,
  driver: DbDriver,
): PreparedStatements {
  return {
    tenantRow: (tenantId, agentId) =>
      traced(driver, "Tenant.findUnique", async () => {
        const { s } = sqliteConnection(await connected());
        const started = performance.now();
        const row = s.tenant.get(agentId ?? null, tenantId) as
          | {
              name: string;
              scriptLimits: string | null;
              configVersion: number;
              appliedActionsVersion: number | null;
            }
          | undefined;
        told(driver, SQLITE.tenant, started);
        if (!row) return null;
        return {
          name: row.name,
          scriptLimits: row.scriptLimits === null ? null : JSON.parse(row.scriptLimits),
          configVersion: row.configVersion,
          appliedActionsVersion: row.appliedActionsVersion,
        };
      }),
    insertAuditRows: (rows) =>
      traced(driver, "AuditEvent.create", async () => {
        const adapter = await connected();
        const { client } = sqliteConnection(adapter);
        // The connection is Prisma's too. A Prisma transaction open on it (between its BEGIN and
        // COMMIT, across awaits) would take these rows in and could roll them back: wait for it
        // to end by taking the adapter's transaction lock. With none open, the whole transaction
        // below runs synchronously, so nothing else can run on the connection in between.
        if (!client.inTransaction) return writeSqliteAudit(adapter, rows, driver, true);
        const held = await adapter.startTransaction();
        try {
          return writeSqliteAudit(adapter, rows, driver, false);
        } finally {
          await held.commit();
        }
      }),
  };
}

/**
 * One transaction: the rows, each numbered after the last of its tenant, in the order given. A lone
 * row (the common case: a call's own row, with no other waiting) is its own statement in
 * autocommit, durable when it returns, with no BEGIN or COMMIT around it.
 */
function writeSqliteAudit(
  adapter: object,
  rows: AuditRowData[],
  driver: DbDriver,
  begin: boolean,
): AuditEventRow[] {
  const { client, s } = sqliteConnection(adapter);
  // The time format Prisma's adapter writes (ISO 8601 with +00:00), which its reads parse.
  const createdAt = new Date();
  const stamp = createdAt.toISOString().replace("Z", "+00:00");
  const insert = (row: AuditRowData): AuditEventRow => {
    const json = JSON.stringify(row.arguments);
    const values = AUDIT_COLUMNS.map((c) => (c === "arguments" ? json : row[c]));
    const started = performance.now();
    const { id, seq } = s.audit.get(...values, row.tenantId, stamp) as { id: number; seq: number };
    told(driver, SQLITE.audit, started);
    // What a read of the row gives back (the stored JSON, parsed).
    return { ...row, id, seq, arguments: JSON.parse(json), createdAt } as AuditEventRow;
  };
  if (begin && rows.length === 1) return [insert(rows[0] as AuditRowData)];
  // Started by the adapter's own BEGIN when its lock was taken.
  if (begin) s.begin.run();
  try {
    const out = rows.map(insert);
    const started = performance.now();
    s.commit.run();
    told(driver, SQLITE.commit, started);
    return out;
  } catch (error) {
    if (client.inTransaction) s.rollback.run();
    throw error;
  }
}

// ---- PostgreSQL ------------------------------------------------------------------------------

const POSTGRES_TENANT = {
  name: "signpost_tenant_agent_row",
  text: TENANT_ROW("$2", "$1"),
};

/** What the audit statement returns, named: `*` would change its result type with the table. */
const AUDIT_RETURNED = ["id", "tenantId", "seq", ...AUDIT_COLUMNS.filter((c) => c !== "tenantId")]
  .map((c) => `"${c}"`)
  .join(", ");

/**
 * One statement per tenant: moves the tenant's counter by its rows' count and inserts them
 * numbered in the order given. One statement holds the counter's lock only while the server runs
 * it: as an interactive transaction the lock was held across the instance's event loop, and in
 * the load run every audit write of the tenant, on every instance, queued behind a holder whose
 * process was busy elsewhere.
 *
 * Its columns are listed, not `*`: it is prepared once per pooled connection, and a column added
 * by a rolling migration would change a `*` result and fail it ("cached plan must not change
 * result type"). The time comes back as epoch milliseconds (the column is a UTC timestamp without
 * time zone, as Prisma writes it): a text form would follow the server's DateStyle.
 */
const POSTGRES_AUDIT = {
  name: "signpost_audit_rows",
  text: `
    WITH counter AS (
      INSERT INTO "AuditCounter" ("tenantId", "seq") VALUES ($1::text, $2::int)
      ON CONFLICT ("tenantId") DO UPDATE SET "seq" = "AuditCounter"."seq" + $2::int
      RETURNING "seq"
    ), input AS (
      SELECT * FROM jsonb_to_recordset($3::jsonb) AS r(
        "ord" int, "agentId" text, "userId" text, "face" text, "operation" text, "target" text,
        "capability" text, "arguments" jsonb, "decision" text, "outcome" text, "message" text,
        "latencyMs" int, "actionId" text, "actionKey" text, "requestId" text)
    ), inserted AS (
      INSERT INTO "AuditEvent" ("tenantId", "seq", "agentId", "userId", "face", "operation",
        "target", "capability", "arguments", "decision", "outcome", "message", "latencyMs",
        "actionId", "actionKey", "requestId")
      SELECT $1::text, counter."seq" - $2::int + input."ord", input."agentId", input."userId",
        input."face", input."operation", input."target", input."capability", input."arguments",
        input."decision", input."outcome", input."message", input."latencyMs", input."actionId",
        input."actionKey", input."requestId"
      FROM input, counter
      ORDER BY input."ord"
      RETURNING ${AUDIT_RETURNED}, "createdAt"
    )
    SELECT ${AUDIT_RETURNED},
      floor(extract(epoch FROM "createdAt") * 1000)::float8 AS "createdAtMs"
    FROM inserted`,
};

/**
 * Rings the audit channel after the rows committed, as its own statement: a notification that
 * cannot be queued (a full queue) must not fail the insert and so the audited call; a lost one
 * costs only latency (the monitor's safety poll finds the row).
 */
const POSTGRES_NOTIFY = { name: "signpost_audit_notify", text: "SELECT pg_notify($1::text, $2::text)" };

/** SQLSTATE 0A000: a prepared statement whose result no longer matches its plan (a schema change). */
const isStalePlan = (error: unknown) =>
  (error as { code?: string } | null)?.code === "0A000" &&
  /cached plan/.test(String((error as Error).message));

function postgresStatements(
  connected: () => Promise<NonNullable<DbDriver["adapter"]>>,
  driver: DbDriver,
): PreparedStatements {
  const pool = async () => (await connected()) as unknown as { underlyingDriver(): pg.Pool };
  const query = async <R extends pg.QueryResultRow>(
    statement: { name: string; text: string },
    values: unknown[],
  ) => {
    const started = performance.now();
    const result = await (await pool()).underlyingDriver().query<R>({ ...statement, values });
    told(driver, statement.text, started);
    return result.rows;
  };
  /**
   * The doorbell, off the answer's path: the rows are durable before it rings, and a listener
   * re-reads the table from its cursor whatever the bell says, so waiting for it only delayed the
   * answer by a round trip (and the next group's commit behind it). One ring at a time: rows
   * committed while one is on its way ring once more after it, not once each.
   */
  let ringing = false;
  let rungAgain: { channel: string; last: number } | null = null;
  const ring = (channel: string, last: number) => {
    if (ringing) {
      rungAgain = { channel, last };
      return;
    }
    ringing = true;
    void query(POSTGRES_NOTIFY, [channel, String(last)])
      .catch(() => {
        /* best effort: the safety poll covers a lost notification */
      })
      .finally(() => {
        ringing = false;
        const next = rungAgain;
        rungAgain = null;
        if (next) ring(next.channel, next.last);
      });
  };
  return {
    tenantRow: (tenantId, agentId) =>
      traced(driver, "Tenant.findUnique", async () => {
        const [row] = await query<TenantRow>(POSTGRES_TENANT, [tenantId, agentId ?? null]);
        return row ?? null;
      }),
    insertAuditRows: (rows, channel) =>
      traced(driver, "AuditEvent.create", async () => {
        const byTenant = new Map<string, number[]>();
        for (const [i, row] of rows.entries())
          byTenant.set(row.tenantId, [...(byTenant.get(row.tenantId) ?? []), i]);
        const out: AuditEventRow[] = new Array(rows.length);
        await Promise.all(
          [...byTenant].map(async ([tenantId, indexes]) => {
            const input = indexes.map((index, i) => {
              const { tenantId: _, ...row } = rows[index] as AuditRowData;
              return { ...row, ord: i + 1 };
            });
            const n = input.length;
            const values = [tenantId, n, JSON.stringify(input)];
            type Returned = Omit<AuditEventRow, "createdAt"> & { createdAtMs: number };
            // The statement failed whole (nothing committed): once more, as a fresh unnamed
            // statement, planned against the table as it is now.
            const inserted = await query<Returned>(POSTGRES_AUDIT, values).catch((error) => {
              if (!isStalePlan(error)) throw error;
              return query<Returned>({ name: "", text: POSTGRES_AUDIT.text }, values);
            });
            if (inserted.length !== n)
              throw new Error(`the audit insert returned ${inserted.length} of ${n} rows`);
            // RETURNING names no order: each row goes back to its caller by its number.
            const first = Math.min(...inserted.map((r) => r.seq));
            for (const { createdAtMs, ...row } of inserted)
              out[indexes[row.seq - first] as number] = { ...row, createdAt: new Date(createdAtMs) };
            ring(channel, first + n - 1);
          }),
        );
        return out;
      }),
  };
}
