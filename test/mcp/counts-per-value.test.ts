import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A count asked per value of a listing's filter ("each team", "per priority", "by team") is
 * answered for every value, zero counts included, with the listing's other filters kept: set AM's
 * models read the open tickets' team column, then the teammates page to learn whether a team had
 * none. Each count is a navigate of the caller's own: a customer counts only the tickets she may list.
 */
describe("counts per value of a filter (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (key: string, query: string) =>
    text(await (await w.connect(key)).callTool({ name: "search", arguments: { query } }));

  it.each(["How many open tickets does each team have?", "open tickets by team"])("%s", async (query) => {
    const out = await search(w.keys.sam, query);
    expect(out).toContain("Billing (billing) 1, Shipping (shipping) 2.");
  });

  it.each(["How many tickets are there in each status?", "tickets per status"])(
    "the listing the count is asked of opens, though a form shares its words: %s",
    async (query) => {
      expect(await search(w.keys.sam, query)).toMatch(
        /## \[Tickets\]\(helpdesk:\/\/tickets\) \(opened here\)\n\nPer status, every one of its 4 values, with this listing's filters: open \d+, pending \d+, resolved \d+, closed \d+\./,
      );
    },
  );

  it.each([
    "How many tickets does the billing team have in each status?",
    "billing team tickets count by status",
  ])(
    "a listing the system's forms crowd out of the pages shown still opens, its filter kept: %s",
    async (query) => {
      // Set AT: the first opened nothing (two helpdesk forms took the system's two places), the
      // second the teammates page, whose per-person counts leave the unassigned ticket out.
      const out = await search(w.keys.sam, query);
      expect(out).toContain("## [Tickets](helpdesk://tickets?team_id=billing) (opened here)");
      expect(out).toContain(
        "Per status, every one of its 4 values, with this listing's filters: open 1, pending 1, resolved 1, closed 1.",
      );
      expect(out).not.toContain("`count`");
    },
  );

  it.each([
    "open tickets per teammate",
    "how many open tickets does each agent have",
    "Which teammate has the fewest open tickets?",
  ])(
    "a filter's values named by what they are ('teammate') are counted, the word no text filter: %s",
    async (query) => {
      const out = await search(w.keys.sam, query);
      expect(out).toMatch(
        /Per assignee_id, every one of its 5 values[^\n]*Sid Shipping \(tm_sid\) 1, unassigned \(none\) 2\./,
      );
      expect(out).not.toMatch(/q=|No ticket matches/);
    },
  );

  it.each([
    "unresolved tickets per team",
    "every ticket but the closed ones per team",
    // Review 54b: `mine` overrides the assignee filter, so each teammate's count was every row.
    "my tickets per teammate",
  ])(
    "rows the words left out are no listing filter the counts keep: no count is said (%s)",
    async (query) => {
      expect(await search(w.keys.sam, query)).not.toMatch(/Per (team_id|assignee_id)/);
    },
  );

  it("every value is counted, a zero too, and a sort's 'by' counts nothing", async () => {
    expect(await search(w.keys.sam, "urgent tickets per team")).toMatch(
      /Billing \(billing\) 0, Shipping \(shipping\) 1\./,
    );
    expect(await search(w.keys.sam, "tickets sorted by priority")).not.toContain("Per priority");
  });

  it("a customer's counts are of the records she may list, never the tenant's", async () => {
    const out = await search(w.keys.alice, "my tickets per team");
    const counts = [...(out.match(/^Per team_id, [^:]+: (.+)\.$/m)?.[1] ?? "").matchAll(/\) (\d+)/g)].map(
      (m) => Number(m[1]),
    );
    const all = Number(out.match(/(\d+) in all/)?.[1]);
    expect(counts.length, out).toBe(2);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(all);
    expect(all).toBeLessThan(9);
  });

  // Set BC: "count of tickets by status" read 617 tokens, 350 of them the nine rows the counts
  // had already answered, and three pages of other systems no model opened.
  it.each([
    "count of tickets by status",
    // Set BJ: `number` was searched for in the tickets' text, and the rows stayed.
    "number of tickets per team",
    "How many tickets are in each status?",
    "Which teammate has the fewest open tickets?",
  ])("a question asking only counts is answered by them, its rows one link away: %s", async (query) => {
    const out = await search(w.keys.sam, query);
    expect(out).toMatch(/^Per (status|assignee_id|team_id), every one/m);
    expect(out).toMatch(
      /Rows not shown \(the counts answer the words\): \[Tickets\]\(helpdesk:\/\/tickets[^)]*\)\./,
    );
    expect(out).toMatch(/\d+ in all/);
    expect(out).not.toContain("| id |");
    expect(out).not.toMatch(/Track shipment|actions:\/\/|signpost:\/\/start/);
  });

  // Review 58: a second question, or one asking the rows or their order, keeps them.
  it.each([
    "open tickets by team",
    "How many open tickets does each team have, and who raised them?",
    "How many open tickets does each team have, who has them?",
    "list the open tickets per team",
    "How many open tickets per team? Which is the urgent one?",
    "How many open tickets per team, oldest first?",
  ])("words that ask for the rows too keep them beside the counts: %s", async (query) => {
    const out = await search(w.keys.sam, query);
    expect(out).toMatch(/^Per team_id, every one of its 2 values/m);
    expect(out).toContain("| id |");
    expect(out).not.toContain("Rows not shown");
  });

  // Review 58: hiding the rows took their lines (the filters, whose records) with them.
  it("a count-only answer keeps the page's lines but its table: the filters, and whose records", async () => {
    expect(await search(w.keys.sam, "Which teammate has the fewest open tickets?")).toContain(
      "Filtered: status = open",
    );
    const mine = await search(w.keys.alice, "How many of my tickets are in each status?");
    expect(mine).toContain("Rows not shown");
    expect(mine).toMatch(/you raised/i);
  });

  // Review 58b: a ranking the listing cannot sort by ("highest priority") left the counts of every
  // ticket with the rows hidden, nothing saying priority was not read; and rows kept for the words
  // they show ("have a kettle") were counted per status as if all were kept.
  it("no count-only answer where words were not all read; no counts beside rows the words narrowed", async () => {
    const ranked = await search(w.keys.sam, "Which teammate has the highest priority tickets?");
    expect(ranked).toContain("| id |");
    expect(ranked).not.toContain("Rows not shown");
    const kettles = await search(w.keys.alice, "how many of my orders in each status have a kettle");
    expect(kettles).not.toMatch(/^Per status/m);
  });

  // Review 58: beside an opened page, another system's page stays where its title or keywords
  // hold a word of the question ("tracking", "refund"); a word of the opened page's own ("status")
  // brings none.
  it.each([
    ["my tickets about the headphones tracking", "Track shipment"],
    ["tickets about my refund", "After-sales"],
  ])("another system's page the words point to stays beside the opened page: %s", async (query, page) => {
    const out = await search(w.keys.alice, query);
    expect(out.slice(out.indexOf("## Other pages"))).toContain(page);
  });

  // Review 58c: a ranked count's ranking word before a filter's value ranks the counts (the value
  // filters); before a sort the listing declares, it sorts.
  it("'which teammate has the most urgent tickets' counts urgent tickets; 'the most recent' still sorts", async () => {
    const urgent = await search(w.keys.sam, "Which teammate has the most urgent tickets?");
    expect(urgent).toContain("Filtered: priority = urgent; not included:");
    expect(urgent).toMatch(/Sid Shipping \(tm_sid\) 0, unassigned \(none\) 1\./);
    const recent = await search(w.keys.sam, "Which team has the most recent ticket?");
    expect(recent).toContain("Newest first");
    expect(recent).toContain("| id |");
  });

  // Set BQ: "teammate with the most tickets" found nothing for `teammate`, `most` and listed
  // tickets by their text; the model opened the teammates page for the counts.
  it("'the teammate with the most tickets' asks the counts per teammate, as 'which teammate has the most' does", async () => {
    const most = await search(w.keys.sam, "teammate with the most tickets");
    expect(most).toMatch(
      /Per assignee_id, every one of its 5 values, with this listing's filters: Bella Billing \(tm_bella\) \d+,/,
    );
    expect(most).toContain("Rows not shown (the counts answer the words)");
    const fewest = await search(w.keys.sam, "the team with the fewest urgent tickets");
    expect(fewest).toContain("Filtered: priority = urgent; not included:");
    expect(fewest).toMatch(
      /Per team_id, every one of its 2 values, with this listing's filters: Billing \(billing\) 0, Shipping \(shipping\) 1\./,
    );
    // Review 61: words that ask for the rows too keep them.
    for (const q of [
      "the teammate with the most tickets and their tickets",
      "team with the most tickets plus the tickets",
    ])
      expect(await search(w.keys.sam, q), q).not.toContain("Rows not shown");
    // A noun that is no filter ("tickets with the highest priority") counts nothing.
    expect(await search(w.keys.sam, "tickets with the highest priority")).not.toContain("Per ");
  });

  // Set BS: "teammates open tickets count" listed the open tickets without the teammates who have
  // none; the model opened the teammates page for the zeros.
  it("a plural beside a word of counting asks the counts per its value: 'teammates open tickets count'", async () => {
    const counted = await search(w.keys.sam, "teammates open tickets count");
    expect(counted).toMatch(
      /Per assignee_id, every one of its 5 values, with this listing's filters: Bella Billing \(tm_bella\) \d+, Bruno Billing \(tm_bruno\) 0,/,
    );
    expect(counted).toContain("Filtered: status = open;");
    // No word of counting, no counts: "teammates and their open tickets" lists the rows.
    expect(await search(w.keys.sam, "open tickets of the teammates")).not.toContain("Per assignee_id");
  });

  // Review 61d: "status" is no plural, and a denial the filter already answers keeps the counts.
  it("'status' asks no count per status as a plural; 'open … not resolved' still counts per team", async () => {
    expect(await search(w.keys.alice, "how many of my orders were refunded, per order status")).not.toContain(
      "Per status, every one of its 5 values",
    );
    expect(await search(w.keys.sam, "how many open tickets per team that are not resolved")).toContain(
      "Per team_id",
    );
  });
});
