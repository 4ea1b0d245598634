import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 52c: "should I remove the mug from my cart?" changed the cart, and stop 51's note left
 * "Should I make it urgent?" as an ask. A question asking whether to do something asks the
 * agent's advice, not for the change: a change nobody approves holds, and says so. A request
 * with "should" in it ("you should refund it") still asks. Real MCP client over HTTP.
 */
describe("'should I …?' asks advice, never for the change (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it.each([
    "Should I set the headphones ticket to pending?",
    "Should we make the headphones ticket urgent?",
    "So should I give the headphones ticket to Sara?",
  ])("%s: nothing changes on the ticket", async (intent) => {
    const before = await legacyJson(w.legacy, "tickets/tkt_2");
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect(await legacyJson(w.legacy, "tickets/tkt_2")).toEqual(before);
  });
});
