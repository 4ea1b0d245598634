import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "@/server/db/client";
import { AUDIT_CHANNEL } from "@/server/gateway/audit-wakeups";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import { seedConsoleFixtures } from "../console/console-fixtures";
import { createTestDatabase, postgresSkipReason, type TestDatabase } from "../helpers/database";

// Issue 22: on PostgreSQL every audited call waited for a second round trip after its row had
// committed, the NOTIFY that wakes other instances' monitors, before it could answer (and the
// next group of rows waited behind it). The row is what must be durable first; the bell is only a
// doorbell (listeners re-read the table from their cursor, and a safety poll covers a lost one),
// so it now rings after the answer, and rows that commit while it is on its way ring it once more.
(postgresSkipReason() === null ? describe : describe.skip)("the audit doorbell on postgres", () => {
  let t: TestDatabase;
  let f: Awaited<ReturnType<typeof seedConsoleFixtures>>;
  let db: Db;
  const events: string[] = [];
  beforeAll(async () => {
    t = await createTestDatabase("postgres");
    f = await seedConsoleFixtures(t.db);
    db = createDb(t.url, {
      onQuery: (q) => {
        if (q.query.includes("pg_notify")) events.push("notify done");
        else if (q.query.includes('"AuditEvent"')) events.push("row committed");
      },
    });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await t?.drop();
  });

  const write = (operation: string) =>
    recordAuditEvent(
      db,
      { tenantId: "acme", userId: f.alice.id, face: "actions" },
      {
        operation,
        outcome: "applied",
        latencyMs: 1,
      },
    );

  it("an audited call answers once its row is committed, without waiting for the notify; the notify still rings", async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    try {
      const heard = new Promise<string>((resolve) =>
        listener.on("notification", (n) => resolve(n.payload ?? "")),
      );
      await listener.query(`LISTEN ${AUDIT_CHANNEL}`);
      await write("doorbell.warm_up");
      await new Promise((r) => setTimeout(r, 100));
      events.length = 0;
      const row = await write("doorbell.first");
      events.push("answered");
      expect(events.slice(0, 2)).toEqual(["row committed", "answered"]);
      // The row is there for anyone reading the table, before the bell.
      const stored = await t.db.auditEvent.findFirst({ where: { tenantId: "acme", seq: row.seq } });
      expect(stored?.operation).toBe("doorbell.first");
      await heard;
      await new Promise((r) => setTimeout(r, 100));
      expect(events).toEqual(["row committed", "answered", "notify done"]);
    } finally {
      await listener.end();
    }
  });

  it("a burst of rows rings the bell at most once per commit, and the last ring names the last row", async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    try {
      const payloads: string[] = [];
      listener.on("notification", (n) => payloads.push(n.payload ?? ""));
      await listener.query(`LISTEN ${AUDIT_CHANNEL}`);
      events.length = 0;
      const rows = await Promise.all(Array.from({ length: 40 }, (_, i) => write(`doorbell.burst_${i}`)));
      const last = Math.max(...rows.map((r) => r.seq));
      const deadline = Date.now() + 5_000;
      while (payloads.at(-1) !== String(last) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(payloads.at(-1)).toBe(String(last));
      expect(events.filter((e) => e === "notify done").length).toBeLessThanOrEqual(
        events.filter((e) => e === "row committed").length,
      );
    } finally {
      await listener.end();
    }
  });
});
