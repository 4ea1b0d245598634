import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { inSpan, SpanKind } from "../telemetry/tracing";
import { tracingConfigured } from "../telemetry/tracing-configured";
import { databaseUrl, providerOf, sqliteFile } from "./database-url";
import { PrismaClient as PostgresClient } from "./generated/postgres/client";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";

/**
 * The Prisma client type every module codes against. Both providers are generated from the
 * same models (prisma/postgres/schema.prisma is derived from the SQLite one), so the
 * SQLite client's type — the smaller feature set of the two — describes both.
 */
export type Db = SqliteClient;

/** One SQL statement the client sent, as Prisma's query event reports it. */
export type DbQuery = { query: string; durationMs: number };

export interface CreateDbOptions {
  /** Told of every statement sent (query counting); without it Prisma emits no query events. */
  onQuery?: (query: DbQuery) => void;
  /** A span per query (default: when OTEL_EXPORTER_OTLP_ENDPOINT asks for traces); without, the plain client. */
  trace?: boolean;
}

/**
 * How a SQLite commit reaches the disk (SIGNPOST_SQLITE_SYNC), set on every connection rather than
 * left to the build (better-sqlite3 compiles WAL mode's default to NORMAL; SQLite's own is FULL).
 * `normal`, the default, as it has always run: a commit reaches the operating system, not the
 * disk, before it returns (WAL stays consistent): a committed audit row or effect-ledger entry
 * survives the process being killed (the crash tests), but the last commits can be lost with the
 * machine (power loss, kernel crash). `full`: every commit also waits for the WAL's fsync, which
 * survives that too, for 1.7 ms p50 / 8 ms p99 per commit on the test machine (most of what a
 * read's audit row costs). PostgreSQL is the store for more than one machine either way.
 */
export function sqliteSyncFromEnv(value = process.env.SIGNPOST_SQLITE_SYNC): "full" | "normal" {
  return value?.trim().toLowerCase() === "full" ? "full" : "normal";
}

type SqliteAdapterFactory = InstanceType<typeof PrismaBetterSqlite3>;
type AdapterFactory = SqliteAdapterFactory | InstanceType<typeof PrismaPg>;
type Adapter = Awaited<ReturnType<AdapterFactory["connect"]>>;

/**
 * What a client made by `createDb` runs on, for the statements it runs on the driver itself
 * (prepared-statements.ts): the adapter Prisma opened last (null before Prisma connects), and who
 * hears of each statement.
 */
export interface DbDriver {
  provider: ReturnType<typeof providerOf>;
  adapter: Adapter | null;
  onQuery?: (query: DbQuery) => void;
  /** A span per statement, as Prisma's queries get one (see `trace` below). */
  trace: boolean;
}

/** The factory, telling `driver` of each adapter it opens (and running `opened` on it first). */
function recordingAdapter<F extends AdapterFactory>(
  factory: F,
  driver: DbDriver,
  opened?: (adapter: Adapter) => Promise<void>,
): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    await opened?.(adapter);
    driver.adapter = adapter;
    // After $disconnect the next use connects again: never a closed connection's statements.
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = () => {
      if (driver.adapter === adapter) driver.adapter = null;
      return dispose();
    };
    return adapter;
  };
  return factory;
}

/** A Prisma client on `url` (default: DATABASE_URL, else the SQLite file in the data dir). */
export function createDb(url: string = databaseUrl(), options: CreateDbOptions = {}): Db {
  const provider = providerOf(url);
  const log = options.onQuery ? [{ emit: "event" as const, level: "query" as const }] : [];
  const trace = options.trace ?? tracingConfigured();
  const driver: DbDriver = { provider, adapter: null, onQuery: options.onQuery, trace };
  const synchronous = sqliteSyncFromEnv() === "full" ? "FULL" : "NORMAL";
  const db =
    provider === "postgres"
      ? (new PostgresClient({
          adapter: recordingAdapter(new PrismaPg({ connectionString: url }), driver),
          log,
        }) as unknown as Db)
      : // Busy timeout: the CLI, the app and tests may open the same file at once (WAL mode is
        // set by the migrator and persists in the file). `PRAGMA synchronous` is per connection.
        new SqliteClient({
          adapter: recordingAdapter(
            new PrismaBetterSqlite3({ url: sqliteFile(url), timeout: 10_000 }),
            driver,
            (adapter) => adapter.executeScript(`PRAGMA synchronous = ${synchronous}`),
          ),
          log,
        });
  const { onQuery } = options;
  if (onQuery)
    (
      db as unknown as { $on(event: "query", cb: (e: { query: string; duration: number }) => void): void }
    ).$on("query", (e) => onQuery({ query: e.query, durationMs: e.duration }));
  drivers.set(db, driver);
  if (!trace) return db;
  // Each query a span in the caller's trace (the extension runs in the caller's async context).
  const system = provider === "postgres" ? "postgresql" : "sqlite";
  const traced = db.$extends({
    query: {
      $allOperations: ({ model, operation, args, query }) =>
        inSpan(
          `db ${model ? `${model}.` : ""}${operation}`,
          { "db.system.name": system, "db.operation.name": operation, "db.collection.name": model ?? "" },
          () => query(args),
          { kind: SpanKind.CLIENT },
        ),
    },
  }) as unknown as Db;
  drivers.set(traced, driver);
  return traced;
}

// The Db type is the SQLite client's, so which database a client talks to (and on which driver)
// is recorded here rather than read from the generated client's internals. On globalThis: the
// Next.js bundle and the modules the HTTP server and jobs load themselves are separate copies of
// this file, and a client made by one copy must be known to the other (NOTIFY, case-insensitive
// filters, prepared statements).
const registry = globalThis as typeof globalThis & { __signpostDbDrivers?: WeakMap<Db, DbDriver> };
registry.__signpostDbDrivers ??= new WeakMap();
const drivers = registry.__signpostDbDrivers;

/** Which database a client made by `createDb` talks to (undefined for any other object, e.g. a transaction client). */
export function providerOfDb(db: Db): ReturnType<typeof providerOf> | undefined {
  return drivers.get(db)?.provider;
}

/** The driver beneath a client made by `createDb` (undefined for any other object). */
export function driverOfDb(db: Db): DbDriver | undefined {
  return drivers.get(db);
}

// Kept on globalThis so Next.js dev reloads reuse one client instead of leaking connections.
const holder = globalThis as typeof globalThis & { __signpostDb?: Db };

/** The process-wide client (created on first use from the environment). */
export function getDb(): Db {
  holder.__signpostDb ??= createDb();
  return holder.__signpostDb;
}
