import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BA (played): "Put the change delivery address ticket back to open and bump it to high
 * priority" was answered "several capabilities match" (a call more). Settling the first ask's tie
 * by the record its words name was tried and taken back (review 57b): "Put the ticket back to
 * open and make it urgent" ran both changes on the kettle ticket ("back" in its description),
 * "Remind me to put … back to open and make it urgent" ran both, and a later ask's own record
 * ("for the headphones ticket bump it to urgent") was taken as the first's. Two asks whose first
 * ties stay a tie: nothing runs, and the answer says which capabilities the words match.
 * Seed: tkt_3 pending, normal; tkt_4 pending, low.
 */
describe("two asks whose first ties: nothing runs (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  for (const intent of [
    "Put the ticket back to open and make it urgent.",
    "Remind me to put the change delivery address ticket back to open and make it urgent.",
    "Put the change delivery address ticket back to open, and for the headphones ticket bump it to urgent.",
  ])
    it(intent, async () => {
      const sam = await w.connect(w.keys.sam);
      const out = await sam.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(await legacyJson(w.legacy, "tickets/tkt_3")).toMatchObject({
        status: "pending",
        priority: "normal",
      });
      expect(await legacyJson(w.legacy, "tickets/tkt_4")).toMatchObject({
        status: "pending",
        priority: "low",
      });
      expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "normal" });
    });
});
