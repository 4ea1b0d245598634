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

  // Set BY: without "ticket" no listing is named, and the record search read "my" as the caller's
  // own tickets: the product holding "headphones" opened as "the one record holding every word";
  // with the helpdesk named, none matched among the one ticket assigned to him.
  it("a record search that 'my' scoped finds the others' records too, each marked", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (args: Record<string, string>) =>
      text(await sam.callTool({ name: "search", arguments: args }));
    const across = await search({ query: "where are my headphones" });
    expect(across).toMatch(
      /^- \[Ticket tkt_2: Where are my headphones\?\]\(helpdesk:\/\/ticket\/tkt_2\) — open \(not yours\)$/m,
    );
    expect(across).not.toContain("(opened here)");
    const helpdesk = await search({ query: "where are my headphones", scheme: "helpdesk" });
    expect(helpdesk).toMatch(/^None of your own holds these words; found among every one you may read:$/m);
    expect(helpdesk).toMatch(/\[Ticket tkt_2\]\(helpdesk:\/\/ticket\/tkt_2\) \(opened here\)/);
    // The caller's own record still answers as theirs, unmarked.
    const own = await search({ query: "my parcel damaged ticket" });
    expect(own).toContain("tkt_6");
    expect(own).not.toMatch(/not yours|None of your own/);
  });

  // Review 62d: "me" names no owner, and a search widened past the caller's own says so when empty.
  it("'me' widens nothing; an empty widened search counts every record it read", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    expect(await search("tell me about the lamp")).not.toMatch(/not yours|None of your own/);
    const none = await search("my widget");
    expect(none).not.toMatch(/the 1 tickets you can see/);
  });
});
