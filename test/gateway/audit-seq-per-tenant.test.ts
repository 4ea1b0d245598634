import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb } from "@/server/db/client";
import { latestAuditSeq, listAuditEvents } from "@/server/gateway/console/list-audit-events";
import { type PublishedAuditEvent, subscribeAuditEvents } from "@/server/gateway/event-stream";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import { contextOf, seedConsoleFixtures } from "../console/console-fixtures";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";

// Issue 8: audit sequence numbers were shared across tenants, so one tenant's monitor skipped the
// numbers of another's calls and learnt how busy it was. Each tenant now numbers its own rows
// (AuditCounter): gapless 1, 2, 3… even while other tenants' writers race, and the internal
// global id never reaches a reader. test/e2e/audit-seq-per-tenant.test.ts does the same through
// the running console's stream and API.

describeEachProvider("per-tenant audit numbers on %s", (provider) => {
  let t: TestDatabase;
  let f: Awaited<ReturnType<typeof seedConsoleFixtures>>;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    f = await seedConsoleFixtures(t.db);
  });
  afterAll(async () => t?.drop());

  const write = (tenantId: string, userId: string, operation: string) =>
    recordAuditEvent(
      t.db,
      { tenantId, userId, face: "actions" },
      {
        operation,
        outcome: "applied",
        latencyMs: 1,
      },
    );

  it("concurrent writers of two tenants: each tenant's rows are numbered 1…n without gaps, from the first row on", async () => {
    const published: PublishedAuditEvent[] = [];
    const unsubscribe = subscribeAuditEvents((event) => published.push(event));
    try {
      // Interleaved and all at once: both tenants' first rows (the counter rows' creation) race too.
      const writes = Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? write("acme", f.alice.id, `acme.op_${i}`)
          : write("globex", f.gina.id, `globex.op_${i}`),
      );
      await Promise.all(writes);
    } finally {
      unsubscribe();
    }
    const acme = await listAuditEvents(t.db, contextOf(f.sam), { afterSeq: 0, limit: 1000 });
    expect(acme.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(acme.every((e) => e.operation.startsWith("acme."))).toBe(true);
    const globex = await listAuditEvents(t.db, contextOf(f.gina), { afterSeq: 0, limit: 1000 });
    expect(globex.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Neither the console's rows nor the live events carry the global id.
    for (const event of [...acme, ...globex, ...published]) expect(Object.keys(event)).not.toContain("id");
    expect(published).toHaveLength(30);
  });

  it("a globex person's numbers and cursor say nothing about how much acme did", async () => {
    const gina = contextOf(f.gina);
    const before = await latestAuditSeq(t.db, gina);
    for (let i = 0; i < 7; i++) await write("acme", f.alice.id, "acme.busy");
    expect(await latestAuditSeq(t.db, gina)).toBe(before);
    const mine = await write("globex", f.gina.id, "globex.after_acme");
    expect(mine.seq).toBe(before + 1);
    // Whatever cursor she asks from, only her tenant's rows come back, and nothing past her count.
    const acmeLatest = await latestAuditSeq(t.db, contextOf(f.sam));
    expect(await listAuditEvents(t.db, gina, { afterSeq: before + 1, limit: 1000 })).toEqual([]);
    const back = await listAuditEvents(t.db, gina, { beforeSeq: acmeLatest + 1000, limit: 1000 });
    expect(back.every((e) => e.operation.startsWith("globex."))).toBe(true);
    expect(back[0]?.seq).toBe(before + 1);
  });
});

// Issue 22: rows that arrive while a commit is in flight go together in the next transaction
// (group commit), and still every caller's row is numbered, stored and returned. On PostgreSQL a
// burst moves each tenant's counter once per group, not once per row (one statement per tenant
// and group); on SQLite (one writer, each row numbered by its own statement) a group is one
// COMMIT, one WAL write, instead of one per row.
describeEachProvider("audit group commit on %s", (provider) => {
  it("a burst of 40 rows takes fewer commits than rows, numbers stay gapless", async () => {
    const t = await createTestDatabase(provider);
    try {
      const f = await seedConsoleFixtures(t.db);
      let groups = 0;
      const counted = createDb(t.url, {
        onQuery: (q) => {
          const sql = q.query.trimStart();
          if (provider === "postgres" ? sql.startsWith("WITH counter") : sql === "COMMIT") groups++;
        },
      });
      try {
        const rows = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            recordAuditEvent(
              counted,
              {
                tenantId: i % 2 ? "acme" : "globex",
                userId: i % 2 ? f.alice.id : f.gina.id,
                face: "actions",
              },
              { operation: `burst.op_${i}`, outcome: "applied", latencyMs: 1 },
            ),
          ),
        );
        // Each caller got its own row back, with its own operation.
        expect(rows.map((r) => r.operation)).toEqual(Array.from({ length: 40 }, (_, i) => `burst.op_${i}`));
        expect(groups).toBeGreaterThan(0);
        expect(groups).toBeLessThan(40);
        // All sent in one turn of the event loop: one group, so one COMMIT on SQLite (whose
        // statements run synchronously: without waiting out the turn each row was its own) and
        // one statement per tenant on PostgreSQL.
        expect(groups).toBe(provider === "postgres" ? 2 : 1);
        const acme = await listAuditEvents(t.db, contextOf(f.sam), { afterSeq: 0, limit: 1000 });
        expect(acme.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        // Numbered in arrival order within the tenant.
        expect(acme.map((e) => e.operation)).toEqual(
          Array.from({ length: 20 }, (_, i) => `burst.op_${2 * i + 1}`),
        );
      } finally {
        await counted.$disconnect();
      }
    } finally {
      await t.drop();
    }
  });
});
