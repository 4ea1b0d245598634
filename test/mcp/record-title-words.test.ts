import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Words naming a record by its title ("the change delivery address ticket", tkt_4's subject)
 * describe the record, not what is asked: played, "Hand the change delivery address ticket from
 * Sara over to Sid." was refused ("No capability does what these words ask on tkt_4"), and the
 * search answered only change_delivery_address, change_ticket_priority and move_ticket_to_team,
 * while the assignment the words ask for was cut by the limit.
 */
describe("a record named by its title is the record, not the capability of its title", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const call = async (name: string, args: Record<string, unknown>) =>
    (await w.connect(w.keys.sam)).callTool({ name, arguments: args });

  it.each([
    "Hand the change delivery address ticket from Sara over to Sid.",
    "Give the change delivery address ticket from Sara to Sid.",
    "Reassign the change delivery address ticket to Sid",
  ])("'%s' assigns tkt_4 to Sid", async (intent) => {
    const found = sc(await call("search_capabilities", { query: intent }));
    expect((found.results as Array<{ capability: string }>)[0]?.capability).toBe("assign_ticket");
    const out = await call("start_action", { intent });
    expect(sc(out)).toMatchObject({ capability: "assign_ticket" });
    expect(text(out)).not.toContain("No capability does");
    expect(sc(out).from_words).toMatchObject({ ticket_id: "tkt_4" });
  });

  // A subject that names other capabilities' acts ("Priority change") against the act asked:
  // assign_ticket's "Does not change status, priority or messages" is no word of the record's.
  it("'Assign the priority change ticket to Sid' assigns the ticket so named", async () => {
    await fetch(`${w.legacy.url}/v1/tickets/tkt_9`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
      body: JSON.stringify({ subject: "Priority change" }),
    });
    const out = sc(await call("start_action", { intent: "Assign the priority change ticket to Sid" }));
    expect(out).toMatchObject({ capability: "assign_ticket" });
    expect(out.from_words).toMatchObject({ ticket_id: "tkt_9" });
  });
});
