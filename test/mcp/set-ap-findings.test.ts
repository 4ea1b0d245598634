import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AP: "every pending ticket back to open" asked about one pending ticket because "back" fit
 * the other's text ("my money back"); "take the ticket myself" never said the caller is no
 * teammate.
 */
describe("set AP findings (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = (id: string) => legacyRecord<{ status: string; priority: string }>(w, `tickets/${id}`);
  const start = async (args: Record<string, unknown>) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: args });

  it.each(["tkt_4", "tkt_3"])("'every pending ticket back to open' sent with %s runs on it", async (id) => {
    const out = await start({ intent: "Set every pending ticket back to open.", entity_id: id });
    expect(sc(out).status, text(out)).toBe("completed");
    expect((await ticket(id)).status).toBe("open");
  });

  it("'assign it to me' says the caller is no teammate, beside the teammates offered", async () => {
    const out = await start({ intent: "Assign the wrong size tee ticket to me." });
    expect(sc(out).capability, text(out)).toBe("assign_ticket");
    expect(text(out)).toContain("you (sam@acme.test) are no teammate, so cannot be assigned");
  });

  it("'back' still describes where no 'to' follows it (review 54d: every open ticket became 'about back pain')", async () => {
    const out = await start({ intent: "Make every open ticket about back pain low priority" });
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect((await ticket("tkt_9")).status).toBe("open");
    expect((await ticket("tkt_9")).priority).toBe("urgent");
  });
});
