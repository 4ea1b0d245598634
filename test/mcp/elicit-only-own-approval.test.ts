import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set V (played): a support agent's host, one that opens URLs for its person, sent him to an
 * approval only an admin may decide; the call stayed open on him, and the model read only that a
 * call waited, never that an admin decides. A host is sent to the approval screen only for an
 * approval its own person may decide; another's is said in the answer, on both faces. Real MCP
 * client over HTTP, gateway and legacy service.
 */
describe("a URL elicitation host opens only its own person's approvals (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const connect = async (key: string, faces: string, shown: string[]) =>
    w.connect(key, {
      faces,
      elicitationModes: { url: true },
      elicit: async (params) => {
        shown.push(String(params.url));
        return { action: "decline" };
      },
    });

  it("an admin's approval is said to a member's host, never opened for him", async () => {
    const shown: string[] = [];
    const sam = await connect(w.keys.sam, "actions", shown);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "move_ticket_to_team", entity_id: "tkt_2", patch: { team_id: "billing" } },
    });
    expect(shown).toEqual([]);
    expect(sc(out).status).toBe("awaiting_approval");
    expect(text(out)).toContain("an admin must approve it");
    const browse = await connect(w.keys.sam, "browse", shown);
    const page = await browse.callTool({
      name: "submit",
      arguments: { uri: "helpdesk://ticket/tkt_1/team", fields: { team_id: "shipping" } },
    });
    expect(shown).toEqual([]);
    expect(text(page)).toContain("an admin must approve it");
  });

  it("the person's own approval is still opened for them", async () => {
    const shown: string[] = [];
    const alice = await connect(w.keys.alice, "actions", shown);
    await alice.callTool({
      name: "start_action",
      arguments: { intent: "Pay my order that awaits payment from my balance." },
    });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain("/confirm/");
  });
});
