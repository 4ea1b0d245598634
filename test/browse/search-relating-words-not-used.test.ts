import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { relatingWords } from "@/server/browse/relating-words";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

const NOT_USED = "not used to narrow these rows.";

/**
 * A word of a search that matched no record's text, and only related the words that chose the
 * rows or counted them ("tickets handled by Sara", "number of resolved … tickets"), emptied the
 * answer: the text filter took it, found nothing, and the rows the other words had chosen were
 * never shown (the model made another call for their statuses). Those rows are the answer now,
 * with one line naming the words not used; a word saying what the records are about ("the login
 * ticket") still gets the honest "no ticket matches".
 */
describe("search: words that only relate the others, matching no text, do not empty the listing", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  const search = async (query: string) => {
    const sam = await w.connect(w.keys.sam);
    return text(await sam.callTool({ name: "search", arguments: { query } }));
  };

  it("'tickets handled by Sara': Sara's tickets with their statuses, 'handled' no text", async () => {
    const page = await search("tickets handled by Sara");
    expect(page).toContain("## [Tickets](helpdesk://tickets?assignee_id=tm_sara) (opened here)");
    // "handled" is a word of the tickets listing itself (set CI), no longer said not used.
    expect(page).not.toContain("`handled` matched nothing");
    expect(page).toMatch(/^\| id \| subject \|.*\| status \|/m);
    expect(rowIds(page).sort()).toEqual(["tkt_4", "tkt_8"]);
    expect(page).not.toMatch(/No ticket matches|[?&]q=/);
  });

  it("a counting word leaves the status words to apply: 'number of resolved or closed tickets per teammate'", async () => {
    const page = await search("number of resolved or closed tickets per teammate");
    expect(page).toContain("## [Tickets](helpdesk://tickets) (opened here)");
    expect(page).toContain("the 4 shown are every row with `status` resolved or closed");
    // "number of" asks a count, as "how many" does (set BJ): never a word searched for.
    expect(page).not.toContain("`number`");
    expect(rowIds(page).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
    expect(page).not.toMatch(/No ticket matches|`: not applied/);
  });

  // Set CP: "category" was searched in the tickets' text ("No ticket matches"); a ticket's team
  // is what it is categorised by.
  it("'open tickets in each category' counts the open tickets per team", async () => {
    const page = await search("How many open tickets are there in each category?");
    expect(page).toContain(
      "Per team_id, every one of its 2 values, with this listing's filters: Billing (billing) 1, Shipping (shipping) 2.",
    );
    expect(page).not.toMatch(/No ticket matches/);
  });

  it("words saying what the tickets are about still answer that no ticket matches", async () => {
    for (const query of [
      "the login ticket",
      "open login tickets",
      "tickets about login for Sara",
      "login tickets handled by Sara",
    ]) {
      const page = await search(query);
      expect(page, query).toMatch(/No ticket matches `login/);
      expect(page, query).not.toContain(NOT_USED);
      expect(rowIds(page), query).toEqual([]);
    }
  });
});

describe("search: relating words on an imported listing", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());
  const search = async (query: string) => {
    const sam = await w.connect(w.keys.sam);
    return text(await sam.callTool({ name: "search", arguments: { query, scheme: "legacy" } }));
  };

  it("counting and grouping words matching no text leave the rows the other words chose", async () => {
    const page = await search("number of resolved or closed legacy tickets per teammate");
    expect(page).toContain("(legacy://v1/tickets) (opened here)");
    expect(page).toContain("`teammate` matched nothing (searched: the API's own q parameter");
    expect(page).toContain(NOT_USED);
    expect(rowIds(page).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
    const urgent = await search("urgent legacy tickets handled by the team");
    expect(urgent).toContain("(legacy://v1/tickets?priority=urgent) (opened here)");
    expect(urgent).toContain("`handled` matched nothing");
    expect(rowIds(urgent)).toEqual(["tkt_9"]);
    expect(`${page}${urgent}`).not.toMatch(/Nothing in .* matches|[?&]q=/);
  });

  it("a topic word still answers that nothing matches", async () => {
    for (const query of ["legacy tickets login", "urgent legacy login tickets"]) {
      const page = await search(query);
      expect(page, query).toMatch(/Nothing in .* matches `login`/);
      expect(page, query).not.toContain(NOT_USED);
    }
  });
});

describe("relatingWords", () => {
  it("a counting word, a word joined to a used word by a preposition, a word after 'per'", () => {
    expect(relatingWords("tickets handled by Sara", "handled")).toEqual(["handled"]);
    expect(relatingWords("tickets worked on by the billing team", "worked")).toEqual(["worked"]);
    expect(relatingWords("count urgent tickets", "count")).toEqual(["count"]);
    expect(relatingWords("resolved tickets per teammate", "teammate")).toEqual(["teammate"]);
    expect(relatingWords("resolved tickets for each teammate", "teammate")).toEqual(["teammate"]);
  });

  it("never a word about the records: before their noun, after a topic word, alone, or beside another such word", () => {
    expect(relatingWords("the login ticket", "login")).toEqual([]);
    expect(relatingWords("open login tickets", "login")).toEqual([]);
    expect(relatingWords("tickets about login for Sara", "login")).toEqual([]);
    expect(relatingWords("tickets login", "login")).toEqual([]);
    // Joined only to another word of the text, or a parallel item beside a filter's value.
    expect(relatingWords("tickets created by robots", "created robots")).toEqual([]);
    expect(relatingWords("login and billing tickets", "login")).toEqual([]);
    expect(relatingWords("for each login ticket", "login")).toEqual([]);
    // Every occurrence must relate.
    expect(relatingWords("handled tickets handled by Sara", "handled")).toEqual([]);
  });
});
