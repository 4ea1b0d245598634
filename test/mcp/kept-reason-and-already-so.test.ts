import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set W (played): "Reopen the invoice copy ticket and give it to Bella." took three calls: the
 * reopen stopped at "needs reason" (a reason the helpdesk is never sent), the assignment was "not
 * done … cannot take tkt_7 now", and the model read the ticket to learn Bella already had it.
 * A reason kept only with the action takes the request verbatim; words naming the current
 * assignee (or an inactive teammate) are read as naming them, and the node's own check says why
 * nothing changes; an other ask already so is said so. Real MCP client over HTTP, legacy service.
 */
describe("a kept reason, and asks already so (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string, extra: Record<string, unknown> = {}) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent, ...extra } });

  it("a reopen with no reason given runs at once, its reason the request verbatim", async () => {
    const out = await start("Reopen the coupon not applied ticket.");
    expect(sc(out).status).toBe("completed");
    expect(text(out)).toContain('reason = "Reopen the coupon not applied ticket." (the user\'s own words)');
    expect((await legacyJson(w.legacy, "tickets/tkt_5")).status).toBe("open");
  });

  it("'… and give it to Bella', who has it: one call, the second said already so", async () => {
    const out = await start("Reopen the invoice copy ticket and give it to Bella.");
    expect(sc(out).status).toBe("completed");
    expect(text(out)).toMatch(
      /^already so: "give it to Bella" → assign_ticket: Bella Billing already has this ticket/m,
    );
    expect(text(out)).not.toContain("also asked");
    expect(await legacyJson(w.legacy, "tickets/tkt_7")).toMatchObject({
      status: "open",
      assignee_id: "tm_bella",
    });
  });

  it("words naming the current assignee or an inactive teammate say why, never 'needs assignee_id'", async () => {
    const bella = await start("give it to Bella", { capability: "assign_ticket", entity_id: "tkt_3" });
    expect(text(bella)).toContain("Bella Billing already has this ticket: nothing to change");
    const bruno = await start("Assign the kettle refund ticket to Bruno.");
    expect(text(bruno)).toContain("Bruno Billing is inactive and cannot take tickets");
    // Set X: the start ends (nothing held), so no action is left for the agent to cancel.
    expect(sc(bruno).status).toBe("refused");
    expect((await legacyJson(w.legacy, "tickets/tkt_3")).assignee_id).toBe("tm_bella");
  });

  it("a ticket with nobody on it says so in its view (set X: the line was left out)", async () => {
    const sam = await w.connect(w.keys.sam);
    const view = await sam.callTool({
      name: "get_context",
      arguments: { entity: "ticket", entity_id: "tkt_1" },
    });
    expect(text(view)).toMatch(/^ {2}assignee: none \(unassigned\)$/m);
  });
});
