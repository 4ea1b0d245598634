import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withAgentRule } from "../helpers/agent-rule";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * A record whose own page the caller is denied is left out of every search hit; the lines that
 * name records read from a listing must leave it out too: the empty search's "No record matches
 * … in: all 9 tickets you can see: tkt_1 …" and a status filter's line naming the one record a
 * left-out status holds. Found by review: both printed the denied ticket's id and title.
 */
describeEachProvider("lines naming records leave out a record whose page is denied (%s)", (provider) => {
  let w: McpWorld;
  let sam: Client;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
    sam = await w.connect(w.keys.sam, { faces: "browse,actions" });
  }, 120_000);
  afterAll(async () => w?.close());

  const call = async (name: string, args: Record<string, unknown>) =>
    text(await sam.callTool({ name, arguments: args }));
  const denied = (pattern: string, body: () => Promise<void>) =>
    withAgentRule(
      w.db,
      { agentId: w.agent.sam.agentId ?? null, verb: "navigate", pattern, decision: "deny" },
      body,
    );

  it("an empty search names no ticket whose own page is denied (as the search hits do not)", async () => {
    await denied("helpdesk://ticket/tkt_2", async () => {
      const empty = await call("search", { query: "zorblax quux", scheme: "helpdesk" });
      expect(empty).toContain("No record matches");
      expect(empty).not.toContain("tkt_2");
      expect(empty).not.toContain("Where are my headphones");
      const opened = await call("search", { query: "tickets zorblax" });
      expect(opened).not.toContain("Where are my headphones");
    });
  });

  it("a status filter's line names no ticket whose own page is denied", async () => {
    await denied("helpdesk://ticket/tkt_3", async () => {
      const page = await call("navigate", { uri: "helpdesk://tickets?status=open&team_id=billing" });
      expect(page).toContain("not included: pending (1");
      expect(page).not.toContain("Kettle refund");
    });
  });
});
