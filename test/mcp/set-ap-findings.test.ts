import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AP: "every pending ticket back to open" asked about one pending ticket because "back" fit
 * the other's text ("my money back"); a note's quoted text after "internal only:" was said "not
 * done" beside the note that carried it.
 */
describe("set AP findings (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = async (id: string) => {
    const res = await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    return (await res.json()) as { status: string };
  };
  const start = async (args: Record<string, unknown>) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: args });

  it.each(["tkt_4", "tkt_3"])("'every pending ticket back to open' sent with %s runs on it", async (id) => {
    const out = await start({ intent: "Set every pending ticket back to open.", entity_id: id });
    expect(sc(out).status, text(out)).toBe("completed");
    expect((await ticket(id)).status).toBe("open");
  });

  it("a note's quoted text after 'internal only:' is the note, never an ask left undone", async () => {
    const out = await start({
      intent:
        "Comment on the where are my headphones ticket, internal only: 'Called UPS, parcel is at the depot.'",
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toContain("internal true");
    expect(text(out)).not.toContain("not done");
  });

  it("'take the ticket myself' starts the assignment and says the caller is no teammate", async () => {
    const out = await start({ intent: "Take the wrong size tee ticket myself." });
    expect(sc(out).capability, text(out)).toBe("assign_ticket");
    expect(text(out)).toContain("you (sam@acme.test) are no teammate, so cannot be assigned");
  });
});
