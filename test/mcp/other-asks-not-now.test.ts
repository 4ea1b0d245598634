import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 49: another ask runs in the same call only where the user asks it now. A question
 * ("Should we give it to Sara?") asks the agent's view, and "tomorrow give it to Sara" asks it
 * later: each keeps its one call, for the user to say, and nothing runs for it.
 */
describe("other asks the user did not ask for now never run in the same call (MCP over HTTP)", () => {
  let w: McpWorld;
  // A world each: the same ask's server key would answer a later case with the first one's run.
  beforeEach(async () => {
    w = await createMcpWorld();
  });
  afterEach(async () => w?.close());

  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({
      name: "start_action",
      arguments: { capability: "set_ticket_status", entity_id: "tkt_2", intent },
    });

  for (const intent of [
    "Set the headphones ticket to pending. Should we give it to Sara?",
    "Set the headphones ticket to pending, and tomorrow give it to Sara",
  ])
    it(`"${intent}": the assignment is offered, not made`, async () => {
      const out = await start(intent);
      expect(sc(out).status, text(out)).toBe("completed");
      expect(sc(out).also_done).toBeUndefined();
      expect(text(out)).toMatch(/^- also asked: ".*give it to Sara"/m);
      expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({
        status: "pending",
        assignee_id: "tm_sid",
      });
    });

  it("the same ask asked now runs", async () => {
    const out = await start("Set the headphones ticket to pending and give it to Sara");
    expect(sc(out).also_done, text(out)).toHaveLength(1);
    expect((await legacyJson(w.legacy, "tickets/tkt_2")).assignee_id).toBe("tm_sara");
  });
});
