import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Issue 23: "What did we tell the customer who had the crushed box?" — the ticket's page showed
 * its resolution but not its comments, so a model could not say what the customer was told. The
 * ticket's page and its get_context view now carry the newest comments, one line each: when, who
 * (a teammate by name, the requester as "customer"), whether the customer sees it, the text; a
 * longer thread says how many came before and where they are read. Real MCP client over HTTP,
 * the gateway and the legacy service.
 */
describe("a ticket's comments are read on its page and in its view", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const comment = (ticket: string, body: string, internal = false) =>
    fetch(`${w.legacy.url}/v1/tickets/${ticket}/comments`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${w.legacy.apiKeys.acme}`,
        "content-type": "application/json",
        "idempotency-key": `k-${Math.random()}`,
      },
      body: JSON.stringify({ author: "tm_bella", body, internal }),
    });

  it("the crushed-box ticket's page says what the customer was told, by whom, and what stayed internal", async () => {
    const sam = await w.connect(w.keys.sam);
    const page = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_6" } }),
    );
    expect(page).toMatch(
      /\| [^|]*ago \| Sid Shipping \| staff only \| Carrier confirmed the damage; claim filed\. \|/,
    );
    expect(page).toMatch(
      /\| [^|]*ago \| Sid Shipping \| customer \| Sorry about the crushed box! A replacement ships today/,
    );
    const view = text(
      await sam.callTool({ name: "get_context", arguments: { entity: "ticket", entity_id: "tkt_6" } }),
    );
    expect(view).toMatch(
      /- at: [^\n]*ago · by: Sid Shipping · visible_to: customer · text: Sorry about the crushed box!/,
    );
    expect(view).toMatch(
      /- at: [^\n]*ago · by: Sid Shipping · visible_to: staff only · text: Carrier confirmed/,
    );
    // The requester's own words are the customer's; a ticket with no thread says so.
    const tkt1 = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_1" } }),
    );
    expect(tkt1).toMatch(/\| customer \| customer \| I only clicked pay once\. \|/);
    // Set AF: two comments stamped the same minute; the order is said, so "the last message" is read.
    expect(tkt1).toMatch(/Card processor[^\n]*\|\n\nOldest first: the last row is the latest\.\n\n## /);
    const quiet = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_5" } }),
    );
    expect(quiet).toContain("- **comments:** none");
    expect(quiet).not.toContain("Oldest first");
  });

  it("a long thread shows its newest ten, newest last, and where the earlier ones are read", async () => {
    for (let i = 1; i <= 12; i++) expect((await comment("tkt_1", `note ${i}`, i % 2 === 0)).status).toBe(201);
    const sam = await w.connect(w.keys.sam);
    const page = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_1" } }),
    );
    const shown = [...page.matchAll(/\| (note \d+|I only clicked pay once\.|Card processor[^|]*) \|/g)].map(
      (m) => m[1],
    );
    expect(shown).toEqual(Array.from({ length: 10 }, (_, i) => `note ${i + 3}`));
    expect(page).toMatch(
      /\| note 12 \|\n\nOldest first: the last row is the latest\. 4 earlier comments: \[read them, oldest first\]\(helpdesk:\/\/ticket\/tkt_1\/comments\)\n/,
    );
    const view = text(
      await sam.callTool({ name: "get_context", arguments: { entity: "ticket", entity_id: "tkt_1" } }),
    );
    expect(view).toContain("earlier_comments: count 4, read_at helpdesk://ticket/tkt_1/comments");
    expect(view.match(/^ {2}- at: /gm)?.length).toBe(10);

    const first = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_1/comments" } }),
    );
    expect(first).toMatch(/\| customer \| customer \| I only clicked pay once\. \|/);
    expect(first).toMatch(/\| Bella Billing \| staff only \| Card processor/);
    expect(first).toContain("Page 1 · 14 in all");
    const second = text(
      await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_1/comments?page=2" } }),
    );
    expect([...second.matchAll(/\| (note \d+) \|/g)].map((m) => m[1])).toEqual([
      "note 9",
      "note 10",
      "note 11",
      "note 12",
    ]);
  });

  it("the comments page is the ticket's: a member or another tenant reads none of it", async () => {
    for (const who of ["alice", "gina"] as const) {
      const page = text(
        await (await w.connect(w.keys[who])).callTool({
          name: "navigate",
          arguments: { uri: "helpdesk://ticket/tkt_1/comments" },
        }),
      );
      expect(page).not.toContain("I only clicked pay once");
      expect(page).not.toContain("Card processor");
    }
  });
});
