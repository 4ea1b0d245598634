import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set DH (both hosts, 2 calls): "Change the wrong size tee ticket to pending." asked which ticket
 * ("TICKET needs ticket_id (from tickets: 9 offered)"): the opening verb "change" was read as a
 * word of the ticket's name, and only "Change delivery address" says it. The verb a request opens
 * with, right before a determiner, is what to do; a name that opens with it ("Change delivery
 * address ticket: …") still names its ticket.
 */
describe("the verb a request opens with is no word of the record's name (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent, dry_run: true } });

  it("'Change the wrong size tee ticket to pending' takes the tee ticket", async () => {
    const out = await start("Change the wrong size tee ticket to pending.");
    expect(sc(out).from_words, text(out)).toMatchObject({ ticket_id: "tkt_9", status: "pending" });
  });

  it("a name that opens with the word still names its record", async () => {
    const out = await start("Change delivery address ticket: set it to open");
    expect(sc(out).from_words, text(out)).toMatchObject({ ticket_id: "tkt_4", status: "open" });
  });
});
