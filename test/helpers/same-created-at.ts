import Database from "better-sqlite3";

/**
 * Makes one demo ticket as old as another, in the legacy service's own database: the demo opens
 * no two at one instant, and a test of a tie makes its own.
 */
export function sameCreatedAt(legacy: { dbPath: string }, ticket: string, asOld: string): void {
  const store = new Database(legacy.dbPath);
  try {
    store
      .prepare(
        "UPDATE tickets SET created_at = (SELECT created_at FROM tickets WHERE tenant_id = 'acme' AND id = ?) WHERE tenant_id = 'acme' AND id = ?",
      )
      .run(asOld, ticket);
  } finally {
    store.close();
  }
}
