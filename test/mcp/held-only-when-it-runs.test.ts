import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set BC (plain host): "Pay for my kettle order that's waiting, from my balance." was answered
 * "awaiting_approval … — not run yet: its own words point back at a record nothing before them
 * names …, so check the record, then confirm_action; their approval at the link carries it out …
 * nothing to call now or after". "that's" describes the order (a relative clause), nothing said
 * before, but reading it so let a change needing no approval run on another ask's record
 * (review 58: "Make the one that's unassigned low priority, and move the headphones ticket to
 * billing"), so "that's" still holds such a change for a check. A change a person approves is
 * checked on their screen, never held for the agent's confirm: the model could not tell whether
 * it had to confirm.
 */
describe("a change a person approves is never also held for the agent's confirm (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'Pay for my kettle order that's waiting, from my balance.': awaits Alice, with no confirm asked of the agent", async () => {
    const mcp = await w.connect(w.keys.alice);
    const out = await mcp.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my kettle order that's waiting, from my balance." },
    });
    expect(text(out)).toMatch(/^awaiting_approval:/);
    expect(text(out)).not.toMatch(/point back|then confirm_action/);
    expect(text(out)).toMatch(/ord_pending/);
  });

  // Review 58: each ran a change needing no approval at once on the record only the other ask named.
  it.each([
    ["Make the one that's unassigned low priority, and move the headphones ticket to billing.", "tkt_2"],
    ["Make the ones that're pending low priority and give the tee ticket to Sara.", "tkt_9"],
    ["Give the tee ticket to Sid and set the one that's pending to high priority.", "tkt_9"],
    ["Resolve the one that's open and assign the tee ticket to Sara.", "tkt_9"],
  ])("%s: nothing changes on %s, named only by the other ask", async (intent, id) => {
    const before = (await legacyJson(w.legacy, `tickets/${id}`)) as Record<string, unknown>;
    const sam = await w.connect(w.keys.sam);
    await sam.callTool({ name: "start_action", arguments: { intent } });
    const after = (await legacyJson(w.legacy, `tickets/${id}`)) as Record<string, unknown>;
    expect({ status: after.status, priority: after.priority }).toEqual({
      status: before.status,
      priority: before.priority,
    });
  });
});
