import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AW (played, elicitation host): a dry run of "Put the wrong size tee ticket on hold and make
 * it high priority" previewed the status change alone; the model started the priority change as
 * a separate call. A preview says the words' other asks beside it, and runs none of them.
 */
describe("a preview says the words' other asks (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("two asks previewed: the first shown, the second said as its call, nothing changed", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Put the wrong size tee ticket on hold and make it high priority.",
        dry_run: true,
      },
    });
    expect(sc(out).outcome).toBe("preview");
    expect(text(out)).toMatch(
      /also asked: "make it high priority" → start_action .*change_ticket_priority.*tkt_9/,
    );
    const ticket = await legacyJson(w.legacy, "tickets/tkt_9");
    expect(ticket).toMatchObject({ status: "open", priority: "urgent" });
  });
});
