import { afterAll, beforeAll, expect, it } from "vitest";
import { providerOfDb } from "@/server/db/client";
import { type AuditFilter, listAuditEvents } from "@/server/gateway/console/list-audit-events";
import type { ConsoleContext } from "@/server/gateway/console-session";
import {
  createTestDatabase,
  describeEachProvider,
  insertAuditRows,
  type TestDatabase,
} from "../helpers/database";

const admin: ConsoleContext = {
  sessionId: "s1",
  tenantId: "acme",
  tenantName: "Acme",
  userId: "u1",
  email: "adam@acme.test",
  name: "Adam",
  role: "admin",
};

describeEachProvider("audit text filters on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await t.db.tenant.create({ data: { id: "acme", name: "Acme" } });
    const row = { tenantId: "acme", face: "actions", arguments: {}, outcome: "applied", latencyMs: 1 };
    await insertAuditRows(t.db, [
      {
        ...row,
        operation: "Order.Refunded",
        target: "ORD-1001",
        capability: "Refunds.Create",
        message: "Refund OK",
      },
      {
        ...row,
        operation: "ticket.created",
        target: "tkt-7",
        capability: "tickets.create",
        message: "opened",
      },
    ]);
  });
  afterAll(async () => t?.drop());

  it("knows which provider it talks to", () => {
    expect(providerOfDb(t.db)).toBe(provider);
  });

  it("operation, target and free-text filters ignore case", async () => {
    const ops = (filter: AuditFilter) =>
      listAuditEvents(t.db, admin, { filter }).then((rows) => rows.map((r) => r.operation));
    expect(await ops({ operation: "order.refunded" })).toEqual(["Order.Refunded"]);
    expect(await ops({ operation: "TICKET" })).toEqual(["ticket.created"]);
    expect(await ops({ target: "ord-10" })).toEqual(["Order.Refunded"]);
    expect(await ops({ target: "REFUNDS.create" })).toEqual(["Order.Refunded"]);
    expect(await ops({ q: "refund ok" })).toEqual(["Order.Refunded"]);
    expect(await ops({ q: "TKT-7" })).toEqual(["ticket.created"]);
    expect(await ops({ q: "nothing-like-this" })).toEqual([]);
  });
});
