import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, legacyRecord, type McpWorld, sc, text } from "./mcp-world";

/**
 * Words that set one of a capability's fixed values settle a near tie for it (set AM: "Mark the
 * charged twice ticket as urgent." answered "several capabilities match" with resolving and the
 * status change, which share "mark"; only the priority change takes "urgent"). A value that
 * describes the record, or that the words deny, settles nothing.
 */
describe("a fixed value the words set picks its capability (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });
  const ticket = (id: string) => legacyRecord<{ priority: string; status: string }>(w, `tickets/${id}`);
  const priority = async (id: string) => (await ticket(id)).priority;

  it.each(["Mark the charged twice ticket as urgent.", "Mark the charged twice ticket as urgent please"])(
    "'%s' changes the priority in one call",
    async (intent) => {
      const out = await start(intent);
      expect(sc(out).capability, text(out)).toBe("change_ticket_priority");
      expect(sc(out).status, text(out)).toBe("completed");
      expect(await priority("tkt_1")).toBe("urgent");
    },
  );

  it.each([
    "Don't mark tkt_1 as urgent",
    "Sara should take the urgent ticket",
    "Sara should handle tkt_1 as urgent.",
    "Hand tkt_1 to Sara as urgent",
    "Why was tkt_1 set to urgent?",
    // Review 54b: taken back, put off, made conditional, the opposite, another ask.
    "Mark tkt_1 as urgent. Sorry, ignore that.",
    "Mark tkt_1 as urgent. Actually, don't.",
    "Mark tkt_1 as urgent if Sid agrees",
    "Mark tkt_1 as urgent next week",
    "Make sure nobody marks tkt_1 as urgent",
    "Turn tkt_1 over to Sara as urgent",
    "Put tkt_1 in Sara's queue as urgent",
    "Update tkt_1's description to urgent billing issue",
  ])(
    "a value denied, describing, riding on another ask or asked about changes nothing: %s",
    async (intent) => {
      const out = await start(intent);
      expect(sc(out).capability, text(out)).not.toBe("change_ticket_priority");
      expect(await priority("tkt_1")).toBe("high");
    },
  );

  it("'give Sara the ticket that's still open' changes no ticket's status (review 54)", async () => {
    const before = await ticket("tkt_4");
    await start("Give Sara the ticket that's still open.");
    expect((await ticket("tkt_4")).status).toBe(before.status);
  });
});
