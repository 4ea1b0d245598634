import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { legacyDataTables, legacySchemaSql } from "./legacy-schema-sql";
import { type LegacyApiKeys, seedDemoData } from "./seed-demo-data";

/**
 * Opens (creating if needed) the legacy SQLite store. A new store gets the demo data;
 * an existing one keeps its data, and its tenant keys follow `apiKeys` so a changed
 * LEGACY_API_KEYS takes effect without a reset.
 */
export function openLegacyStore(dbPath: string, apiKeys: LegacyApiKeys): Database.Database {
  if (dbPath !== ":memory:") mkdirSync(dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.exec(legacySchemaSql);
  // A store made before orders knew whether they came from the cart: its orders did not.
  const orderColumns = db.prepare("PRAGMA table_info(orders)").all() as Array<{ name: string }>;
  if (!orderColumns.some((c) => c.name === "from_cart"))
    db.exec("ALTER TABLE orders ADD COLUMN from_cart INTEGER NOT NULL DEFAULT 0 CHECK (from_cart IN (0, 1))");
  const tenants = db.prepare("SELECT COUNT(*) AS n FROM tenants").get() as { n: number };
  if (tenants.n === 0) {
    db.transaction(() => seedDemoData(db, apiKeys))();
  } else {
    const setKey = db.prepare("UPDATE tenants SET api_key = ? WHERE id = ?");
    db.transaction(() => {
      setKey.run(apiKeys.acme, "acme");
      setKey.run(apiKeys.globex, "globex");
    })();
  }
  return db;
}

/** Throws away every change (and stored idempotent responses) and writes the demo data again. */
export function resetLegacyStore(db: Database.Database): void {
  const keys = db.prepare("SELECT id, api_key FROM tenants").all() as { id: string; api_key: string }[];
  const keyOf = (id: string) => keys.find((k) => k.id === id)?.api_key ?? `missing-${id}`;
  db.transaction(() => {
    for (const table of legacyDataTables) db.prepare(`DELETE FROM ${table}`).run();
    seedDemoData(db, { acme: keyOf("acme"), globex: keyOf("globex") });
  })();
}
