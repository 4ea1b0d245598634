import { afterAll, beforeAll, expect, it } from "vitest";
import type { PublishedAuditEvent } from "@/server/gateway/event-stream";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * Arguments that fail a tool's schema reach the gateway so that the refusal is audited; what an
 * agent sends must not decide how large the audit row, or the live monitor's event, gets.
 */
describeEachProvider("refused arguments over MCP are audited bounded (%s)", (provider) => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
  });
  afterAll(async () => w?.close());

  async function lastSeq(): Promise<number> {
    return (await w.db.auditEvent.findFirst({ orderBy: { seq: "desc" } }))?.seq ?? 0;
  }

  it("start_action with an unknown 200 kB field: rejected / invalid_arguments, the row and the event bounded", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await lastSeq();
    const seen: PublishedAuditEvent[] = [];
    const unsubscribe = w.gw.subscribe((e) => seen.push(e));
    const res = await client.callTool({
      name: "start_action",
      arguments: { capability: "checkout", padding: "p".repeat(200_000) },
    });
    unsubscribe();
    expect(res.isError ?? false).toBe(false);
    expect(sc(res)).toMatchObject({ outcome: "rejected", reason: "invalid_arguments" });
    expect(JSON.stringify(sc(res))).not.toContain("p".repeat(300));

    const rows = await w.db.auditEvent.findMany({ where: { seq: { gt: before } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ operation: "action.started", outcome: "rejected", face: "actions" });
    // The row still says what was tried, cut with a marker.
    expect(rows[0]?.arguments).toEqual({
      capability: "checkout",
      padding: `${"p".repeat(200)}…[+199800 chars]`,
    });
    const published = seen.filter((e) => e.seq === rows[0]?.seq);
    expect(published).toHaveLength(1);
    expect(published[0]?.arguments).toEqual(rows[0]?.arguments);
    expect(await w.db.action.count({ where: { capability: "checkout", tenantId: "acme" } })).toBe(0);
  });

  it("browse submit with an unknown 200 kB field: a rejected page, the row bounded by the same writer", async () => {
    const client = await w.connect(w.keys.alice, { faces: "browse" });
    const before = await lastSeq();
    const res = await client.callTool({
      name: "submit",
      arguments: {
        uri: "shop://checkout",
        fields: { payment_type: "balance" },
        padding: "q".repeat(200_000),
      },
    });
    expect(sc(res)).toMatchObject({ outcome: "rejected", title: "Invalid arguments" });
    const rows = await w.db.auditEvent.findMany({ where: { seq: { gt: before } } });
    expect(rows.map((r) => [r.operation, r.outcome])).toEqual([["browse.submitted", "rejected"]]);
    expect(rows[0]?.arguments).toEqual({
      uri: "shop://checkout",
      fields: { payment_type: "balance" },
      padding: `${"q".repeat(200)}…[+199800 chars]`,
    });
  });
});
