import pg from "pg";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createDb, type Db } from "@/server/db/client";
import { type AuditRowData, preparedStatements } from "@/server/db/prepared-statements";
import { readTenantRow } from "@/server/gateway/agent-key-cache";
import { recordAuditEvent } from "@/server/gateway/record-audit-event";
import { createTestDatabase, describeEachProvider, type TestDatabase } from "../helpers/database";

// The statements every MCP call runs, on the driver's own prepared statements
// (server/db/prepared-statements.ts) rather than through Prisma. What they return must be what
// Prisma reads back, and on SQLite they share Prisma's one connection: an audit row must never
// join a Prisma transaction open there (its rollback would take the row with it after the call
// was answered).

const row = (tenantId: string, operation: string, args: object = {}): AuditRowData => ({
  tenantId,
  agentId: null,
  userId: null,
  face: "system",
  operation,
  target: null,
  capability: null,
  arguments: args,
  decision: null,
  outcome: "applied",
  message: null,
  latencyMs: 3,
  actionId: null,
  actionKey: null,
  requestId: "req-1",
});

describeEachProvider("prepared hot statements on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.tenant.create({ data: { id: "ps", name: "Prepared", scriptLimits: { cpuMs: 250 } } });
    await t.db.tenant.create({ data: { id: "ps2", name: "Other" } });
  });
  afterAll(async () => t?.drop());

  it("reads the tenant row as Prisma does (JSON parsed, null kept, unknown tenant null)", async () => {
    const select = { name: true, scriptLimits: true, configVersion: true } as const;
    for (const id of ["ps", "ps2"])
      expect(await readTenantRow(t.db, id)).toEqual({
        ...(await t.db.tenant.findUnique({ where: { id }, select })),
        appliedActionsVersion: null,
      });
    expect(await readTenantRow(t.db, "nobody")).toBeNull();
  });

  it("reads the calling agent's applied-actions stamp with it, only from the agent's own tenant", async () => {
    const user = await t.db.user.create({
      data: { tenantId: "ps", email: "p@ps.test", name: "P", role: "member", passwordHash: "x" },
    });
    const agent = await t.db.agent.create({
      data: { tenantId: "ps", userId: user.id, name: "a", keyHash: "ps-hash", keyPrefix: "sp_ps" },
    });
    await t.db.action.create({
      data: {
        tenantId: "ps",
        agentId: agent.id,
        userId: user.id,
        capability: "c",
        node: "DONE",
        status: "applied",
        state: {},
      },
    });
    const { appliedActionsVersion } = await t.db.agent.findUniqueOrThrow({ where: { id: agent.id } });
    expect(appliedActionsVersion).toBe(1);
    expect((await readTenantRow(t.db, "ps", agent.id))?.appliedActionsVersion).toBe(1);
    expect((await readTenantRow(t.db, "ps2", agent.id))?.appliedActionsVersion).toBeNull();
    expect((await readTenantRow(t.db, "ps", "no-such-agent"))?.appliedActionsVersion).toBeNull();
  });

  it("returns the audit rows exactly as Prisma reads them back (id, number, time, JSON)", async () => {
    const args = { text: "ünïcode ✓", n: 1.5, list: [1, null, { deep: true }], empty: {} };
    const [written] = await preparedStatements(t.db).insertAuditRows(
      [row("ps", "test.shape", args)],
      "test_channel",
    );
    const read = await t.db.auditEvent.findUniqueOrThrow({ where: { id: written?.id } });
    expect(written).toEqual(read);
    expect(written?.createdAt).toBeInstanceOf(Date);
    expect(Math.abs((written?.createdAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it("numbers a group's rows per tenant in the order given, gapless after what was there", async () => {
    const before = await t.db.auditCounter.findUnique({ where: { tenantId: "ps" } });
    const rows = await preparedStatements(t.db).insertAuditRows(
      [row("ps", "a"), row("ps2", "b"), row("ps", "c"), row("ps2", "d"), row("ps", "e")],
      "test_channel",
    );
    const first = (before?.seq ?? 0) + 1;
    expect(rows.map((r) => [r.tenantId, r.operation, r.seq])).toEqual([
      ["ps", "a", first],
      ["ps2", "b", 1],
      ["ps", "c", first + 1],
      ["ps2", "d", 2],
      ["ps", "e", first + 2],
    ]);
  });

  it("an audit row written while a Prisma transaction is open waits for it, and survives its rollback", async () => {
    let written: Promise<unknown> | undefined;
    let settledInside = false;
    await expect(
      t.db.$transaction(async (tx) => {
        await tx.tenant.update({ where: { id: "ps2" }, data: { name: "renamed, then rolled back" } });
        written = recordAuditEvent(
          t.db,
          { tenantId: "ps2", userId: null, face: "system" },
          { operation: "test.during_transaction", outcome: "applied", latencyMs: 0 },
        ).then(() => {
          settledInside = true;
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
        // SQLite has one connection and one writer: the row cannot commit before this ends.
        if (provider === "sqlite") expect(settledInside).toBe(false);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    await written;
    // Read through another client: committed, not only visible to the connection that wrote it.
    const other: Db = createDb(t.url);
    try {
      expect(await other.auditEvent.count({ where: { operation: "test.during_transaction" } })).toBe(1);
      expect((await other.tenant.findUniqueOrThrow({ where: { id: "ps2" } })).name).toBe("Other");
    } finally {
      await other.$disconnect();
    }
  });

  it("a client disconnected and used again runs them on its new connection", async () => {
    const client: Db = createDb(t.url);
    try {
      expect((await readTenantRow(client, "ps"))?.name).toBe("Prepared");
      await client.$disconnect();
      expect((await readTenantRow(client, "ps"))?.name).toBe("Prepared");
      const [written] = await preparedStatements(client).insertAuditRows(
        [row("ps2", "test.reconnected")],
        "c",
      );
      expect(written?.operation).toBe("test.reconnected");
    } finally {
      await client.$disconnect();
    }
  });

  it("two clients (two instances) writing one tenant at once keep its numbers gapless", async () => {
    const other: Db = createDb(t.url);
    try {
      const actor = { tenantId: "ps", userId: null, face: "system" as const };
      await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          recordAuditEvent(i % 2 ? other : t.db, actor, {
            operation: "test.race",
            outcome: "applied",
            latencyMs: 0,
          }),
        ),
      );
    } finally {
      await other.$disconnect();
    }
    const seqs = (await t.db.auditEvent.findMany({ where: { tenantId: "ps" }, orderBy: { seq: "asc" } })).map(
      (r) => r.seq,
    );
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect((await t.db.auditCounter.findUniqueOrThrow({ where: { tenantId: "ps" } })).seq).toBe(seqs.length);
  });

  it("a failing fast insert (after an effect was applied) falls back to Prisma's: the call does not throw, the row is written and numbered", async () => {
    const statements = preparedStatements(t.db);
    const failing = vi
      .spyOn(statements, "insertAuditRows")
      .mockRejectedValueOnce(
        Object.assign(new Error("cached plan must not change result type"), { code: "0A000" }),
      );
    try {
      const before = (await t.db.auditCounter.findUnique({ where: { tenantId: "ps2" } }))?.seq ?? 0;
      const event = await recordAuditEvent(
        t.db,
        { tenantId: "ps2", userId: null, face: "system" },
        { operation: "test.fallback", outcome: "applied", latencyMs: 0 },
      );
      expect(failing).toHaveBeenCalledTimes(1);
      expect(event.seq).toBe(before + 1);
      expect(await t.db.auditEvent.count({ where: { tenantId: "ps2", operation: "test.fallback" } })).toBe(1);
    } finally {
      failing.mockRestore();
    }
  });

  // PostgreSQL only: the audit statement is named once per pooled connection and outlives schema
  // changes and server settings made while instances run.
  const onPostgres = provider === "postgres" ? it : it.skip;
  const admin = async <T>(run: (c: pg.Client) => Promise<T>) => {
    const c = new pg.Client({ connectionString: t.url });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };
  const writeMany = (db: Db, operation: string, channel = "test_channel") =>
    Promise.all(
      Array.from({ length: 8 }, () =>
        preparedStatements(db).insertAuditRows([row("ps", operation)], channel),
      ),
    );

  onPostgres(
    "a notification that cannot be sent (here: a channel name too long) fails neither the rows nor the call",
    async () => {
      const written = (await writeMany(t.db, "test.notify_fails", "x".repeat(100))).flat()[0];
      expect(written?.operation).toBe("test.notify_fails");
      expect(await t.db.auditEvent.count({ where: { operation: "test.notify_fails" } })).toBe(8);
    },
  );

  onPostgres("the time reads back the same under a non-ISO DateStyle", async () => {
    const database = new URL(t.url).pathname.slice(1);
    await admin((c) => c.query(`ALTER DATABASE "${database}" SET DateStyle = 'SQL, DMY'`));
    const client: Db = createDb(t.url);
    try {
      const started = Date.now();
      const written = (await writeMany(client, "test.datestyle")).flat()[0];
      expect(written?.createdAt.getTime()).toBeGreaterThanOrEqual(started - 5_000);
      expect(written?.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 5_000);
    } finally {
      await client.$disconnect();
      await admin((c) => c.query(`ALTER DATABASE "${database}" RESET DateStyle`));
    }
    const again = (await writeMany(t.db, "test.datestyle_reset")).flat()[0];
    const read = await t.db.auditEvent.findUniqueOrThrow({ where: { id: again?.id } });
    expect(again).toEqual(read);
  });

  onPostgres(
    "a column added, or a column's type changed, by a rolling migration fails no audit write",
    async () => {
      const client: Db = createDb(t.url);
      try {
        // Prepared on the pooled connections first, then the table changes under them.
        await writeMany(client, "test.before_migration");
        await admin((c) => c.query(`ALTER TABLE "AuditEvent" ADD COLUMN "addedLater" text`));
        const after = (await writeMany(client, "test.after_add_column")).flat();
        expect(after.every((r) => r.operation === "test.after_add_column" && !("addedLater" in r))).toBe(
          true,
        );
        await admin((c) => c.query(`ALTER TABLE "AuditEvent" ALTER COLUMN "message" TYPE varchar(4000)`));
        const retyped = (await writeMany(client, "test.after_retype")).flat();
        expect(retyped.map((r) => r.operation)).toEqual(Array(8).fill("test.after_retype"));
        expect(await client.auditEvent.count({ where: { operation: "test.after_retype" } })).toBe(8);
      } finally {
        await client.$disconnect();
        await admin((c) =>
          c.query(`ALTER TABLE "AuditEvent" DROP COLUMN "addedLater", ALTER COLUMN "message" TYPE text`),
        );
      }
    },
  );
});
