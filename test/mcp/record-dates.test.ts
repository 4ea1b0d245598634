import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordDates } from "@/server/connectors/sdk/record-dates";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

const WHEN = /\d{4}-\d\d-\d\d(?: \d\d:\d\d UTC)?, (?:\d+ (?:min|h|days) ago|just now|in \d+ (?:min|h|days))/;

/**
 * A record's view and page say when what happened to it happened (paid, shipped, delivered, and
 * until when it may be returned), compactly and only where present. Played (issue 23): "is my
 * headphones order delivered yet? If not, when did it ship?" found no ship date on the order's
 * page or get_context view, and the model started track_shipment to learn it.
 */
describe("a record's view and page show the dates of what happened to it (real MCP client)", () => {
  let w: McpWorld;
  let alice: Client;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    alice = await w.connect(w.keys.alice);
  }, 120_000);
  afterAll(async () => w?.close());

  const call = async (name: string, args: Record<string, unknown>) =>
    text(await alice.callTool({ name, arguments: args }));

  it("a shipped order's page and view say when it was paid and shipped, and nothing of a delivery yet", async () => {
    const page = await call("navigate", { uri: "shop://order/ord_transit" });
    const line = page.split("\n").find((l) => l.startsWith("- **dates:**")) ?? "";
    expect(line).toMatch(new RegExp(`paid: ${WHEN.source} · shipped: ${WHEN.source}$`));
    expect(page).not.toContain("delivered at");
    const view = await call("get_context", { entity_id: "ord_transit" });
    expect(view).toMatch(new RegExp(`\\n  dates: paid ${WHEN.source}; shipped ${WHEN.source}\\n`));
  });

  it("a delivered order says when it was delivered and until when it may be returned", async () => {
    const view = await call("get_context", { entity_id: "ord_delivered" });
    const line = view.split("\n").find((l) => l.startsWith("  dates:")) ?? "";
    for (const event of ["paid", "shipped", "delivered", "returns_until"])
      expect(line).toMatch(new RegExp(`${event} ${WHEN.source}`));
  });

  it("an unpaid order has no dates line at all", async () => {
    const view = await call("get_context", { entity_id: "ord_pending" });
    expect(view).not.toContain("dates:");
  });

  it("the dates are read from any record's own fields: events by their word, deadlines by name", () => {
    expect(
      recordDates({
        createdAt: "2026-12-01T10:00:00Z",
        updated_at: "2026-12-02T10:00:00Z",
        shippedOn: "2026-12-03T10:00:00Z",
        resolved_at: null,
        read_at: "helpdesk://ticket/t1/comments",
        returns_until: "2027-01-02T10:00:00Z",
      }),
    ).toEqual({ shipped: "2026-12-03T10:00:00Z", returns_until: "2027-01-02T10:00:00Z" });
    expect(recordDates({ created_at: "2026-12-01T10:00:00Z" })).toBeUndefined();
  });
});
