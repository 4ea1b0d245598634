import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * "my" opens a listing on the caller's own records (`?mine=1`); where none of theirs holds the
 * other words, the words were a record's own ("Where are my headphones?" is a ticket's subject)
 * and every record the caller may read is searched. Played (set AD): "No ticket matches
 * `headphones`, in the 1 tickets you can see", and the model listed every ticket.
 */
describe("search: 'my' that was a record's own words", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("'my' in a record's own words: none of the caller's holds them, so every record they may read is searched (set AD)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    // "Where are my headphones?" is a ticket's subject; Sam is assigned one other ticket.
    const found = await search("where are my headphones ticket");
    expect(found).toContain("None of yours (`helpdesk://tickets?mine=1`) holds these words");
    expect(found).toMatch(/\[Ticket tkt_2\]\(helpdesk:\/\/ticket\/tkt_2\) \(opened here\)/);
    // Words no ticket holds: still said among the caller's own, nothing widened.
    const none = await search("my tickets about the moon");
    expect(none).toMatch(/No ticket matches `moon`, in the 1 tickets you can see/);
    expect(none).not.toContain("None of yours");
  });
});
