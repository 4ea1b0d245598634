import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { narrowedListing } from "@/server/browse/listing-words";
import { STOP, words } from "@/server/browse/route-words";
import { helpdeskConnector } from "@/server/connectors/helpdesk/helpdesk-connector";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import { connectorProblem } from "@/server/connectors/sdk/define-connector";
import type { FilterChoice, RouteDefinition } from "@/server/connectors/sdk/define-route";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** The team_id cells of a listing's rows, in the order shown. */
const teamCells = (markdown: string) =>
  [...markdown.matchAll(/^\| `tkt_\d+` \|.*\| `(\w+)` \| [^|]+ \|$/gm)].map((m) => m[1]);

/**
 * Words of a search that name a value of a filter the opened listing declares become that
 * filter, said back in words, never its text search: Sam's "open tickets team shipping oldest
 * first" answered "No ticket matches `team shipping`" though shipping is a team the tickets
 * listing filters by. And when the text search finds nothing, the answer says what it read.
 */
describe("search: words that name a filter's value", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("a team named by its name filters the tickets by that team, said as `team = Shipping`", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "helpdesk" } }));
    const shipping = await search("open tickets team shipping oldest first");
    expect(shipping).toMatch(
      /^## \[Tickets\]\(helpdesk:\/\/tickets\?[^)]*team_id=shipping[^)]*\) \(opened here\)$/m,
    );
    expect(shipping).toContain("status=open");
    expect(shipping).toContain("sort=oldest");
    expect(shipping).not.toMatch(/[?&]q=|No ticket matches/);
    // One line: the filters in the words that set them, then what the status filter leaves out.
    expect(shipping).toMatch(/^Filtered: status = open, team = Shipping; not included: /m);
    expect(teamCells(shipping).length).toBeGreaterThan(0);
    expect(new Set(teamCells(shipping))).toEqual(new Set(["shipping"]));
    // The name alone, and other words beside it: those still search the text.
    const billing = await search("billing tickets charged");
    expect(billing).toMatch(
      /\(helpdesk:\/\/tickets\?(q=charged&team_id=billing|team_id=billing&q=charged)\)/,
    );
    expect(new Set(teamCells(billing))).toEqual(new Set(["billing"]));
    // Words naming no team leave the teams unread and the words where they were.
    expect(await search("login ticket")).not.toContain("team_id=");
  });

  it("people's words for a status apply it, said with them (set K: 'waiting on the customer' is pending)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "Which tickets are waiting on the customer?" },
      }),
    );
    expect(page).toMatch(/\(helpdesk:\/\/tickets\?status=pending\)/);
    expect(page).toMatch(/^Filtered: status = pending \\?\(waiting on the customer\\?\)/m);
    expect(page).not.toMatch(/[?&]q=|No ticket matches/);
    expect(page).toContain("| pending |");
    expect(page).not.toMatch(/\| (open|resolved|closed) \|/);
    // Named both ways, one value.
    const both = text(
      await sam.callTool({ name: "search", arguments: { query: "pending tickets on hold" } }),
    );
    expect(both).toMatch(/tickets\?status=pending\)/);
  });

  it("a word people use for two statuses keeps both, said once (set AD: 'the oldest unresolved ticket' found nothing)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({ name: "search", arguments: { query: "oldest unresolved ticket" } }),
    );
    expect(page).toMatch(/\(helpdesk:\/\/tickets\?sort=oldest\)/);
    expect(page).not.toMatch(/[?&]q=|found nothing|No ticket matches/);
    expect(page).toContain("`unresolved`: 4 ");
    expect(page).toMatch(/\| (open|pending) \|/);
    expect(page).not.toMatch(/\| (resolved|closed) \|/);
  });

  it("a caller who may not read the teammates page learns no team through a search's words", async () => {
    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "sam@acme.test" } },
    });
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: agent.id,
        verb: "navigate",
        pattern: "helpdesk://teammates",
        decision: "deny",
        position: 0,
      },
    });
    try {
      const sam = await w.connect(w.keys.sam, { faces: "browse" });
      const found = text(
        await sam.callTool({
          name: "search",
          arguments: { query: "open tickets team shipping", scheme: "helpdesk" },
        }),
      );
      expect(found).not.toContain("team_id=");
      expect(found).not.toContain("team = Shipping");
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
    }
  });

  it("a teammate named by their first name, or nobody, filters the tickets by assignee (set O)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "helpdesk" } }));
    const sara = await search("tickets assigned to Sara");
    expect(sara).toMatch(/\(helpdesk:\/\/tickets\?assignee_id=tm_sara\) \(opened here\)$/m);
    expect(sara).not.toMatch(/not narrowed/);
    const rows = [...sara.matchAll(/^\| `(tkt_\d+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(["tkt_4", "tkt_8"]);
    const nobody = await search("Which open tickets have nobody assigned, oldest first?");
    expect(nobody).toMatch(/\(helpdesk:\/\/tickets\?[^)]*assignee_id=none[^)]*\) \(opened here\)$/m);
    expect(nobody).toContain("status=open");
    const open = [...nobody.matchAll(/^\| `(tkt_\d+)` \|/gm)].map((m) => m[1]);
    expect(open).toEqual(["tkt_1", "tkt_9"]);
    // Set AZ: "no" before the filter's own name asks for its none ("with no assignee" opened the
    // teammates page, then every ticket).
    for (const query of ["tickets with no assignee", "Which tickets are without an assignee?"]) {
      const none = await search(query);
      expect(none, query).toMatch(/\(helpdesk:\/\/tickets\?assignee_id=none\) \(opened here\)$/m);
      expect([...none.matchAll(/^\| `(tkt_\d+)` \|/gm)].map((m) => m[1]).sort(), query).toEqual([
        "tkt_1",
        "tkt_9",
      ]);
    }
    // Review 57: its "no" sets no later filter apart; "no one" and "no assignee has replied"
    // name no assignee filter.
    const billing = await search("tickets with no assignee in billing");
    expect(billing).toMatch(/\(helpdesk:\/\/tickets\?assignee_id=none&team_id=billing\) \(opened here\)$/m);
    for (const query of [
      "tickets no one has replied to",
      "tickets where no assignee has replied",
      "all tickets, no assignee filter",
      "tickets that are not without an assignee",
    ])
      expect(await search(query), query).not.toContain("assignee_id=none");
    // What rows lack names no page; "assignees" still names the teammates.
    expect(await search("list all assignees")).toMatch(/\(helpdesk:\/\/teammates\) \(opened here\)$/m);
    // A priority is a value the listing filters by too.
    const urgent = await search("urgent tickets");
    expect(urgent).toMatch(/\(helpdesk:\/\/tickets\?priority=urgent\) \(opened here\)$/m);
  });

  it("words that set a value apart never apply it: 'not assigned to Sara', 'other than high or urgent' (review)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "helpdesk" } }));
    const notSara = await search("tickets not assigned to Sara");
    expect(notSara).not.toContain("assignee_id=tm_sara");
    expect(notSara).not.toContain("Filtered: assignee = Sara");
    for (const query of ["tickets other than high or urgent", "tickets except high or urgent ones"]) {
      const apart = await search(query);
      expect(apart, query).not.toMatch(/the \d+ shown are every row with `priority` high or urgent/);
      expect(apart, query).not.toContain("priority=");
    }
    // After the values, a negation is about something else: the two values keep their rows.
    const kept = await search("the high or urgent tickets that are not resolved");
    expect(kept).toMatch(/^`high or urgent`: \d+ rows? with `priority` low or normal left out here/m);
  });

  it("an imported listing's id filter takes a record's name from the system's own listing of them", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy tickets billing", scheme: "legacy" },
      }),
    );
    expect(found).toMatch(/\(legacy:\/\/v1\/tickets\?team_id=billing\) \(opened here\)/);
    expect(found).toContain("Filtered: team = Billing.");
    expect(found).toContain("| `tkt_1` |");
    expect(found).toContain("Each row's page: `legacy://v1/tickets/{id}`");
    expect(found).not.toContain("tkt_2");
  });

  it("an empty text search says which fields it searched, on hand-written and imported listings", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string, scheme: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme } }));
    expect(await search("login problem ticket", "helpdesk")).toContain(
      "No ticket matches `login problem`, nor `login` or `problem` alone, in all 9 tickets you can see (searched: subjects and descriptions of tickets)",
    );
    expect(await search("products zzyzx", "shop")).toContain(
      "(searched: names, descriptions and SKUs of products)",
    );
    // Imported: the document's own words for its text parameter.
    expect(await search("legacy tickets login", "legacy")).toContain(
      "(searched: the API's own q parameter: matches subject or description)",
    );
  });

  it("a listing with a free-text filter that does not say what it searches is refused at registration", () => {
    const routes = helpdeskConnector.routes.map((r) =>
      r.pattern === "helpdesk://tickets" ? { ...r, textSearches: undefined } : r,
    );
    expect(connectorProblem({ ...helpdeskConnector, routes })).toMatch(
      /helpdesk:\/\/tickets has a free-text filter but no textSearches/,
    );
    expect(connectorProblem(helpdeskConnector)).toBeNull();
  });
});

/** A tickets-like listing whose team filter reads its choices, counting the reads. */
function listing(teams: FilterChoice[]) {
  const reads = { count: 0 };
  const route: RouteDefinition = {
    pattern: "desk://tickets",
    title: "Support tickets",
    description: "Tickets.",
    keywords: ["tickets"],
    filters: {
      status: ["open", "closed", "pending_payment", "all"],
      team_id: {
        async choices() {
          reads.count++;
          return teams;
        },
      },
      q: "free text",
    },
    textSearches: "subjects",
    render: async () => ({ title: "", outcome: "applied", markdown: "" }),
  };
  return { route, reads };
}

// The backend reaches only the choices function, which here needs none of it.
const backend = {} as BrowseBackend;
const narrow = (route: RouteDefinition, q: string) =>
  narrowedListing(
    backend,
    route.pattern,
    route,
    words(q).filter((w) => !STOP.has(w)),
    q,
  );

describe("narrowedListing: filter values named by words, for any listing", () => {
  it("takes a label's words, the longest label named, and a multi-word enum value", async () => {
    const { route } = listing([
      { value: "t_ship", label: "Shipping" },
      { value: "t_ship_eu", label: "Shipping EU" },
      { value: "t_cs", label: "Customer Success" },
    ]);
    expect((await narrow(route, "shipping eu tickets")).uri).toBe("desk://tickets?team_id=t_ship_eu");
    const cs = await narrow(route, "customer success tickets about refunds");
    expect(cs.uri).toBe("desk://tickets?team_id=t_cs&q=refunds");
    expect(cs.filtered).toEqual(["team = Customer Success"]);
    expect((await narrow(route, "pending payment tickets")).uri).toBe(
      "desk://tickets?status=pending_payment",
    );
    // Of two values with the same words, the plain one ("price", not "-price").
    const sorted: RouteDefinition = { ...route, filters: { order_by: ["price", "-price"] } };
    expect((await narrow(sorted, "tickets price")).uri).toBe("desk://tickets?order_by=price");
    // "all" is a value no word names on its own ("all open tickets" is the open ones).
    expect((await narrow(route, "all open tickets")).uri).toBe("desk://tickets?status=open");
  });

  it("a word naming values of two filters applies neither and says so: no guess", async () => {
    const { route } = listing([{ value: "t_open", label: "Open" }]);
    const open = await narrow(route, "open tickets login");
    expect(open.uri).toBe("desk://tickets?q=login");
    expect(open.filtered).toEqual([]);
    expect(open.ambiguous).toEqual([
      "`open` names a status and a team: not applied; add the one meant (`?status=` or `?team_id=`).",
    ]);
  });

  it("a word that names the listing is not a team, and teams are read at most once, only for words left over", async () => {
    const { route, reads } = listing([{ value: "t_support", label: "Support" }]);
    expect((await narrow(route, "open support tickets")).uri).toBe("desk://tickets?status=open");
    expect(reads.count).toBe(0);
    await narrow(route, "support tickets about login");
    expect(reads.count).toBe(1);
  });

  it("choices that cannot be read leave the words as they were", async () => {
    const { route } = listing([]);
    const failing: RouteDefinition = {
      ...route,
      filters: {
        ...route.filters,
        team_id: {
          async choices() {
            throw new Error("the helpdesk is down");
          },
        },
      },
    };
    expect((await narrow(failing, "open tickets shipping")).uri).toBe(
      "desk://tickets?status=open&q=shipping",
    );
  });
});
