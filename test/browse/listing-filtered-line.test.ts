import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Every filtered listing opens with one "Filtered:" line naming what its address applied. Played:
 * the tickets listing filtered by a team said nothing of it while the orders listing did, and an
 * orders listing whose other statuses were not counted claimed "no record has another status"
 * (the system filtered; the page knew no more than the filter it asked for).
 */
describe("a filtered listing says its filters in one true line", () => {
  let w: McpWorld;
  let alice: Client;
  let sam: Client;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
    alice = await w.connect(w.keys.alice, { faces: "browse" });
    sam = await w.connect(w.keys.sam, { faces: "browse" });
  }, 120_000);
  afterAll(async () => w?.close());

  const call = async (who: Client, name: string, args: Record<string, unknown>) =>
    text(await who.callTool({ name, arguments: args }));

  it("a listing filtered by a team states it, hand-written and imported alike", async () => {
    const billing = await call(sam, "navigate", { uri: "helpdesk://tickets?team_id=billing" });
    expect(billing).toMatch(/^Filtered: team_id = billing\.$/m);
    const imported = await call(sam, "navigate", { uri: "legacy://v1/tickets?team_id=billing" });
    expect(imported).toMatch(/^Filtered: team_id = billing\.$/m);
    // Both filters on the one line, with what the status filter leaves out.
    const both = await call(sam, "navigate", { uri: "helpdesk://tickets?status=open&team_id=shipping" });
    expect(both).toContain("Filtered: status = open, team_id = shipping; not included: pending (1");
    // Search names the filter in the words that set it, still one line.
    const searched = await call(sam, "search", { query: "billing tickets" });
    expect(searched.match(/^Filtered: /gm)).toHaveLength(1);
    expect(searched).toContain("Filtered: team = Billing.");
    // An unfiltered listing has no such line.
    expect(await call(sam, "navigate", { uri: "helpdesk://tickets" })).not.toContain("Filtered:");
  });

  it("other statuses that could not be counted are not said to be empty", async () => {
    // The page's own read is held, then every read after it (the other statuses' counts) fails.
    await w.legacy.injectFault({ match: "GET /v1/orders", mode: "latency", latency_ms: 1500, count: 1 });
    try {
      const pending = call(alice, "navigate", { uri: "shop://orders?status=delivered" });
      await new Promise((r) => setTimeout(r, 400));
      await w.legacy.injectFault({ match: "GET /v1/orders", mode: "error", count: 50 });
      const delivered = await pending;
      expect(delivered).toContain("ord_delivered_old");
      // The value as people call it may follow in brackets ("delivered (arrived)").
      expect(delivered).toMatch(/^Filtered: status = delivered(?: \\\(arrived\\\))?\.$/m);
      expect(delivered).not.toContain("no record has another");
    } finally {
      await w.legacy.clearFaults();
    }
  });
});
