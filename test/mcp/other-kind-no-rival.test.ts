import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

/**
 * Set Y (played): "Put the wrong size tee ticket on pending." was refused as "several
 * capabilities match": an order's payment and its unpaid cancel matched "pending" about as well
 * as a ticket's status. Words that name a ticket make an order's capability no rival of a
 * ticket's best match. Real MCP client over HTTP, legacy service.
 */
describe("matches of another kind of record than the words name are no rivals (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'Put the wrong size tee ticket on pending.' runs the ticket's status change", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Put the wrong size tee ticket on pending." },
    });
    expect(sc(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect((await legacyJson(w.legacy, "tickets/tkt_9")).status).toBe("pending");
  });

  it("words naming no kind still tie as before: nothing started on a guess", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({ name: "start_action", arguments: { intent: "pending" } });
    expect(sc(out).status).not.toBe("completed");
  });

  it("a note's text the user quoted is not held for a check: both asks run in one call (set Y)", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Make the headphones ticket urgent and add an internal note: 'Carrier escalation opened.'",
      },
    });
    expect(sc(out).status).toBe("completed");
    expect((await legacyJson(w.legacy, "tickets/tkt_2")).priority).toBe("urgent");
    const comments = (await legacyJson(w.legacy, "tickets/tkt_2/comments")) as {
      data?: Array<{ body: string; internal: boolean }>;
    };
    expect(comments.data?.some((c) => c.body === "Carrier escalation opened." && c.internal)).toBe(true);
  });
});
