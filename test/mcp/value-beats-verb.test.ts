import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * Set BM: "Set the headphones ticket to urgent." started the status change ("set" opens its name)
 * where only the priority takes "urgent"; both players cancelled it and submitted the priority
 * form (two calls more). Where the verb and the value the words set point at different matches,
 * the verb settles nothing. Real MCP client over HTTP, gateway and legacy helpdesk.
 */
describe("a value the words set beats a verb another capability is named for", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'Set the headphones ticket to urgent' changes its priority; 'to pending' still its status", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = async (intent: string) =>
      sc(await sam.callTool({ name: "start_action", arguments: { intent } }));
    expect(await start("Set the headphones ticket to urgent.")).toMatchObject({
      capability: "change_ticket_priority",
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "urgent", status: "open" });
    expect(await start("Set the headphones ticket to pending.")).toMatchObject({
      capability: "set_ticket_status",
    });
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ status: "pending" });
  });
});
