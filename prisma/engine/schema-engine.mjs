#!/usr/bin/env node
// A stand-in for Prisma's native schema engine binary.
//
// Why: `prisma migrate …` spawns a native `schema-engine` that it downloads from Prisma's
// binary host on first use; that host is unreachable here and on many locked-down servers.
// The same engine exists compiled to WebAssembly (`schema_engine_bg.wasm`, shipped inside
// the `prisma` package at the exact engine version of the CLI). This program speaks the
// native engine's newline-delimited JSON-RPC on stdin/stdout and forwards every method to
// the WASM engine, which reaches the database through Prisma's driver adapters
// (better-sqlite3 / pg). prisma.config.ts points PRISMA_SCHEMA_ENGINE_BINARY here, so the
// ordinary workflow (`prisma migrate dev`, `migrate deploy`, `migrate status`, `db push`,
// `migrate diff`, `migrate reset`) works without the download.
//
// Plain JavaScript on purpose: the CLI executes this file directly (shebang), before any
// TypeScript tooling could run.

import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
// The engine commit of the prisma CLI we ship with (@prisma/engines-version).
const ENGINE_COMMIT = "d1b3f377ca835d73fd50954a5e22128b9ebdd6b8";
const debugFile = process.env.SIGNPOST_SCHEMA_ENGINE_LOG;

function debug(...parts) {
  if (debugFile) appendFileSync(debugFile, `${new Date().toISOString()} ${parts.join(" ")}\n`);
}

function parseArgs(argv) {
  const out = { datamodels: [], datasource: undefined, version: false, cli: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--version" || arg === "-V") out.version = true;
    else if (arg === "--datamodels") out.datamodels.push(argv[++i]);
    else if (arg === "--datasource") out.datasource = JSON.parse(argv[++i]);
    else if (arg === "--enabled-preview-features" || arg === "--extension-types") i++;
    else if (arg === "cli") out.cli = argv[++i];
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
if (args.version) {
  process.stdout.write(`schema-engine-cli ${ENGINE_COMMIT}\n`);
  process.exit(0);
}

/** SQLite URLs are `file:` paths; relative ones are taken from the CLI's working directory. */
function sqlitePath(url) {
  const raw = url.replace(/^file:/, "").replace(/\?.*$/, "");
  if (raw === ":memory:") return raw;
  return isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}

function isPostgres(url) {
  return /^postgres(ql)?:\/\//.test(url);
}

async function loadWasmEngine() {
  // Glue code (wasm-bindgen) from @prisma/schema-engine-wasm. Its import/export table is
  // identical to the CLI's own wasm (checked below), so we run the engine build that
  // matches the CLI exactly and fall back to the package's wasm if that ever changes.
  const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const glue = await import(gluePath);
  const candidates = [
    join(dirname(require.resolve("prisma/package.json")), "build", "schema_engine_bg.wasm"),
    join(dirname(gluePath), "schema_engine_bg.wasm"),
  ];
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    const module = new WebAssembly.Module(readFileSync(file));
    const missing = WebAssembly.Module.imports(module).filter((imp) => !(imp.name in glue));
    if (missing.length > 0) {
      debug("wasm", file, "does not match the glue, missing", missing.length);
      continue;
    }
    const instance = new WebAssembly.Instance(module, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    debug("wasm loaded from", file);
    return glue;
  }
  throw new Error("no usable schema_engine_bg.wasm found");
}

// adapter-pg refuses result columns of a few catalog types the engine reads during
// introspection ("char", int2vector, regproc, pg_node_tree, regclass…); as text they are fine.
const PG_OIDS_AS_TEXT = new Set([18, 22, 24, 194, 2205]);
function patchPgResultTypes() {
  const pg = require("pg");
  const original = pg.Result.prototype.addFields;
  pg.Result.prototype.addFields = function addFields(fields) {
    for (const field of fields) if (PG_OIDS_AS_TEXT.has(field.dataTypeID)) field.dataTypeID = 25;
    return original.call(this, fields);
  };
}

/** better-sqlite3 runs one statement per prepare(): multi-statement scripts go through exec(). */
function wrapSqliteAdapter(adapter) {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      if (prop === "executeRaw") {
        return async (query) => {
          if (query.args.length === 0 && query.sql.trim().replace(/;\s*$/, "").includes(";")) {
            await target.executeScript(query.sql);
            return 0;
          }
          return target.executeRaw(query);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * adapter-pg's executeScript splits a script at every `;`, dollar-quoted function bodies and
 * string literals included, so a PL/pgSQL trigger could not be written plainly in a migration.
 * PostgreSQL parses a multi-statement script itself (the simple query protocol, as Prisma's
 * native engine sends a migration: one implicit transaction), so the script goes whole.
 */
function wrapPgAdapter(adapter) {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      if (prop === "executeScript") {
        return async (script) => {
          try {
            await target.client.query(script);
          } catch (error) {
            target.onError(error);
          }
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function createAdapterFactory(url, shadowDatabaseUrl) {
  if (isPostgres(url)) {
    patchPgResultTypes();
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const main = new PrismaPg({ connectionString: url });
    return {
      provider: "postgres",
      adapterName: main.adapterName,
      connect: async () => wrapPgAdapter(await main.connect()),
      // adapter-pg's own shadow database keeps the connection string, which names the main
      // database, so it would replay migrations there. Use a real throwaway database instead.
      async connectToShadowDb() {
        if (shadowDatabaseUrl)
          return wrapPgAdapter(await new PrismaPg({ connectionString: shadowDatabaseUrl }).connect());
        const admin = await main.connect();
        const name = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID().replaceAll("-", "")}`;
        await admin.executeScript(`CREATE DATABASE "${name}"`);
        const shadowUrl = new URL(url);
        shadowUrl.pathname = `/${name}`;
        const shadow = wrapPgAdapter(
          await new PrismaPg({ connectionString: shadowUrl.toString() }).connect(),
        );
        const dispose = shadow.dispose.bind(shadow);
        return new Proxy(shadow, {
          get(target, prop, receiver) {
            if (prop === "dispose") {
              return async () => {
                await dispose();
                await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
                await admin.dispose();
              };
            }
            const value = Reflect.get(target, prop, receiver);
            return typeof value === "function" ? value.bind(target) : value;
          },
        });
      },
    };
  }
  const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
  const path = sqlitePath(url);
  const main = new PrismaBetterSqlite3(
    { url: path },
    { shadowDatabaseUrl: shadowDatabaseUrl ? sqlitePath(shadowDatabaseUrl) : ":memory:" },
  );
  return {
    provider: "sqlite",
    adapterName: main.adapterName,
    connect: async () => wrapSqliteAdapter(await main.connect()),
    connectToShadowDb: async () => wrapSqliteAdapter(await main.connectToShadowDb()),
  };
}

// The engine's own DDL for the migrations table. The WASM engine reads this table before it
// creates it on a brand-new SQLite file, so it must exist first.
const SQLITE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

function withSqlite(url, fn) {
  const Database = require("better-sqlite3");
  const db = new Database(sqlitePath(url));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

// Once per process, before the engine's first look at the table: later, the engine's own
// connection may hold a lock (e.g. right after applyMigrations) and a second writer would fail.
let migrationsTableEnsured = false;
function ensureSqliteMigrationsTable(url) {
  if (migrationsTableEnsured) return;
  withSqlite(url, (db) => {
    const exists = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'")
      .get();
    if (!exists) db.exec(SQLITE_MIGRATIONS_TABLE);
  });
  migrationsTableEnsured = true;
}

// The WASM engine cannot delete a SQLite file, and its reset drops nothing there: drop every
// object ourselves (the native engine deletes the file).
function resetSqlite(url) {
  withSqlite(url, (db) => {
    db.pragma("foreign_keys = OFF");
    const objects = db
      .prepare(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type IN ('table','view')",
      )
      .all();
    for (const { type, name } of objects) {
      db.exec(`DROP ${type === "view" ? "VIEW" : "TABLE"} IF EXISTS "${name.replaceAll('"', '""')}"`);
    }
    db.exec("VACUUM");
    db.exec(SQLITE_MIGRATIONS_TABLE);
  });
}

function toRpcError(error) {
  // The WASM engine throws its user-facing errors as objects (or JSON text) in the native
  // engine's shape: { message, error_code?, meta?, is_panic }.
  let payload = error;
  if (typeof error === "string") {
    try {
      payload = JSON.parse(error);
    } catch {
      payload = { message: error };
    }
  } else if (error instanceof Error) {
    try {
      payload = JSON.parse(error.message);
    } catch {
      payload = { message: error.message, is_panic: false };
    }
  }
  const message = payload?.message ?? String(error);
  return {
    code: 4466,
    message: "An error happened. Check the data field for details.",
    data: {
      is_panic: Boolean(payload?.is_panic),
      message,
      ...(payload?.error_code ? { error_code: payload.error_code } : {}),
      meta: payload?.meta ?? null,
    },
  };
}

async function main() {
  const datasource = args.datasource ?? {};
  const url = datasource.url ?? process.env.DATABASE_URL;
  if (!url) throw new Error("schema engine shim: no datasource url (set DATABASE_URL or prisma.config.ts)");
  const sqlite = !isPostgres(url);
  debug("start", process.cwd(), JSON.stringify(args));

  const glue = await loadWasmEngine();
  const datamodels = args.datamodels.map((file) => [
    file,
    readFileSync(resolve(process.cwd(), file), "utf8"),
  ]);
  const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
  const factory = bindMigrationAwareSqlAdapterFactory(
    await createAdapterFactory(url, datasource.shadowDatabaseUrl),
  );
  const engine = await glue.SchemaEngine.new(
    { datamodels: datamodels.length > 0 ? datamodels : undefined },
    (log) => debug("engine:", log),
    factory,
  );

  const readsMigrationsTable = new Set([
    "applyMigrations",
    "devDiagnostic",
    "diagnoseMigrationHistory",
    "evaluateDataLoss",
    "createMigration",
    "markMigrationApplied",
    "markMigrationRolledBack",
  ]);

  async function call(method, params) {
    if (sqlite && readsMigrationsTable.has(method)) ensureSqliteMigrationsTable(url);
    switch (method) {
      case "getDatabaseVersion":
        return engine.version(params ?? null);
      case "version":
        return ENGINE_COMMIT;
      case "reset":
        if (sqlite) {
          resetSqlite(url);
          return null;
        }
        await engine.reset(params);
        return null;
      case "evaluateDataLoss":
        // The engine computes the data-loss report from state that devDiagnostic prepares.
        await engine.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters });
        return engine.evaluateDataLoss(params);
      case "diff": {
        // The native engine sends its output to the CLI as a `print` request; the WASM engine
        // returns it instead. Forward it so `prisma migrate diff` prints as usual.
        const result = await engine.diff(params);
        if (result.stdout) {
          const print = {
            jsonrpc: "2.0",
            id: `print-${Date.now()}`,
            method: "print",
            params: { content: result.stdout.replace(/\n$/, "") },
          };
          process.stdout.write(`${JSON.stringify(print)}\n`);
        }
        return { exitCode: result.exitCode };
      }
      default: {
        if (typeof engine[method] !== "function") {
          const err = new Error(`method not supported by the WASM schema engine: ${method}`);
          err.code = -32601;
          throw err;
        }
        const result = await engine[method](params);
        return result === undefined ? {} : result;
      }
    }
  }

  // Requests are answered in order: the engine is single-threaded and the CLI sends one at a time.
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on("line", (line) => {
    if (!line.trim()) return;
    queue = queue.then(async () => {
      let request;
      try {
        request = JSON.parse(line);
      } catch {
        return;
      }
      if (request.id === undefined || typeof request.method !== "string") return; // e.g. the CLI's answer to `print`
      debug("->", line.slice(0, 2000));
      let response;
      try {
        const result = await call(request.method, request.params);
        response = { jsonrpc: "2.0", id: request.id, result: result ?? null };
      } catch (error) {
        debug("!!", error?.stack ?? JSON.stringify(error));
        response = { jsonrpc: "2.0", id: request.id, error: toRpcError(error) };
      }
      const text = JSON.stringify(response);
      debug("<-", text.slice(0, 2000));
      process.stdout.write(`${text}\n`);
    });
  });
  lines.on("close", () => {
    queue.then(() => process.exit(0));
  });
}

function cliError(message, errorCode) {
  // The CLI skips the first stderr line (the native engine's start-up log) and parses the rest.
  process.stderr.write(
    `${JSON.stringify({ level: "INFO", target: "schema_engine::logger", fields: { message: "schema engine shim (wasm)" } })}\n`,
  );
  process.stderr.write(
    `${JSON.stringify({ level: "ERROR", target: "schema_engine::logger", fields: { message, ...(errorCode ? { error_code: errorCode } : {}) } })}\n`,
  );
  process.exit(1);
}

// `schema-engine cli <command>`: the one-shot commands the CLI runs before a migration.
async function runCli(command) {
  const url = args.datasource?.url ?? process.env.DATABASE_URL;
  if (!url) cliError("no datasource url");
  if (!isPostgres(url)) {
    const path = sqlitePath(url);
    if (command === "can-connect-to-database") {
      if (path !== ":memory:" && !existsSync(path)) cliError(`Database ${path} does not exist`, "P1003");
    } else if (command === "create-database") {
      mkdirSync(dirname(path), { recursive: true });
      withSqlite(url, () => undefined);
      process.stdout.write(`SQLite database ${path} created\n`);
    } else if (command === "drop-database") {
      rmSync(path, { force: true });
    } else cliError(`unknown cli command ${command}`);
    process.exit(0);
  }
  const pg = require("pg");
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ""));
  const connect = async (connectionString) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    return client;
  };
  try {
    if (command === "can-connect-to-database") {
      await (await connect(url)).end();
    } else {
      const admin = new URL(url);
      admin.pathname = "/postgres";
      const client = await connect(admin.toString());
      const ident = `"${name.replaceAll('"', '""')}"`;
      if (command === "create-database") await client.query(`CREATE DATABASE ${ident}`);
      else if (command === "drop-database") await client.query(`DROP DATABASE IF EXISTS ${ident}`);
      else cliError(`unknown cli command ${command}`);
      await client.end();
    }
  } catch (error) {
    if (error?.code === "3D000") cliError(`Database \`${name}\` does not exist`, "P1003");
    cliError(String(error?.message ?? error), "P1001");
  }
  process.exit(0);
}

(args.cli ? runCli(args.cli) : main()).catch((error) => {
  process.stderr.write(
    `${JSON.stringify({ level: "ERROR", target: "schema_engine::logger", fields: { message: String(error?.stack ?? error) } })}\n`,
  );
  process.exit(1);
});
