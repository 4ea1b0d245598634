import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { narrowedListing } from "@/server/browse/listing-words";
import { STOP, words } from "@/server/browse/route-words";
import type { BrowseBackend } from "@/server/connectors/sdk/browse-backend";
import type { FilterChoice, RouteDefinition } from "@/server/connectors/sdk/define-route";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

/**
 * Issue 23 (set S): Sam searched "Alice open tickets" and got "No ticket matches `alice` …
 * (searched: subjects and descriptions of tickets)", read as "Alice has no tickets"; two more
 * calls (the listing, `?columns=requester_email`) answered it. A word naming the part of a
 * requester's address before its `@` now filters by that requester.
 */
describe("search: a requester named by the words before their address's @", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  const legacyPatch = (ticket: string, body: Record<string, unknown>) =>
    fetch(`${w.legacy.url}/v1/tickets/${ticket}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("'Alice open tickets', 'tickets Alice raised', 'Alice's open tickets' filter by her address", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    const whole = await search("open tickets alice@acme.test");
    const hers = rowIds(whole);
    expect(hers.length).toBeGreaterThan(0);
    for (const query of ["Alice open tickets", "Alice's open tickets"]) {
      const page = await search(query);
      expect(page).toContain(
        "## [Tickets](helpdesk://tickets?requester_email=alice%40acme.test&status=open) (opened here)",
      );
      expect(page).toMatch(/^Filtered: requester email = alice@acme\.test, status = open/m);
      expect(page).not.toMatch(/No ticket matches|[?&]q=/);
      expect(rowIds(page)).toEqual(hers);
    }
    const raised = await search("tickets Alice raised");
    expect(raised).toContain("(helpdesk://tickets?requester_email=alice%40acme.test) (opened here)");
    expect(rowIds(raised).length).toBeGreaterThan(hers.length);
    // A whole address still sets it whole.
    expect(whole).toContain("requester_email=alice%40acme.test");
    // The domain names nobody: "acme" stays a word searched for.
    const acme = text(
      await sam.callTool({ name: "search", arguments: { query: "acme tickets", scheme: "helpdesk" } }),
    );
    expect(acme).not.toContain("requester_email");
    expect(acme).toContain("tickets?q=acme");
  });

  it("an imported listing's address filter takes a requester's name too", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const found = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy tickets from alice", scheme: "legacy" },
      }),
    );
    expect(found).toContain("requester_email=alice%40acme.test");
    expect(found).not.toMatch(/[?&]q=/);
  });

  it("a word in two requesters' addresses, or in a teammate's name and a requester's, applies neither and says so", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query, scheme: "helpdesk" } }));
    expect((await legacyPatch("tkt_5", { requester_email: "alice_b@acme.test" })).status).toBe(200);
    const two = await search("Alice open tickets");
    expect(two).toContain("(helpdesk://tickets?status=open) (opened here)");
    // Either order: the addresses are read from the latest tickets.
    expect(two).toMatch(
      /^`alice` names 2 requester emails \((`alice@acme\.test`, `alice_b@acme\.test`|`alice_b@acme\.test`, `alice@acme\.test`)\): not applied; add the one meant \(`\?requester_email=`\)\.$/m,
    );
    expect(two).not.toMatch(/No ticket matches|[?&]q=/);
    // Bella is a teammate: her name is an assignee's and now a requester's.
    expect((await legacyPatch("tkt_5", { requester_email: "bella.b@acme.test" })).status).toBe(200);
    const bella = await search("bella tickets");
    expect(bella).toContain("## [Tickets](helpdesk://tickets) (opened here)");
    expect(bella).toContain(
      "`bella` names an assignee and a requester email: not applied; add the one meant (`?assignee_id=` or `?requester_email=`).",
    );
  });
});

/** A listing whose address filter reads the addresses it holds, counting the reads. */
function listing(addresses: string[], people: FilterChoice[] = []) {
  const reads = { count: 0 };
  const route: RouteDefinition = {
    pattern: "desk://requests",
    title: "Requests",
    description: "Requests.",
    keywords: ["requests"],
    filters: {
      status: ["open", "closed"],
      owner_id: { choices: async () => people },
      raised_by: {
        emailAddresses: true,
        async choices() {
          reads.count++;
          return addresses.map((a) => ({ value: a, label: a }));
        },
      },
      q: "free text",
    },
    textSearches: "subjects",
    render: async () => ({ title: "", outcome: "applied", markdown: "" }),
  };
  return { route, reads };
}

const narrow = (route: RouteDefinition, q: string) =>
  narrowedListing(
    {} as BrowseBackend,
    route.pattern,
    route,
    words(q).filter((w) => !STOP.has(w)),
    q,
  );

describe("narrowedListing: an address filter's choices, for any listing", () => {
  it("a word before the @ names the address, split at dots and underscores; the domain never does", async () => {
    const { route, reads } = listing(["Kim.Lee@corp.test", "max_b@corp.test", "x.9@corp.test"]);
    const kim = await narrow(route, "open requests lee");
    expect(kim.uri).toBe("desk://requests?raised_by=kim.lee%40corp.test&status=open");
    expect(kim.filtered).toEqual(["raised by = kim.lee@corp.test", "status = open"]);
    expect((await narrow(route, "max's requests")).uri).toBe("desk://requests?raised_by=max_b%40corp.test");
    expect((await narrow(route, "corp requests")).uri).toBe("desk://requests?q=corp");
    // A letter or a number alone names nobody.
    expect((await narrow(route, "requests b")).uri).toBe("desk://requests?q=b");
    // Words that name the listing and its values leave the addresses unread.
    const before = reads.count;
    await narrow(route, "open requests");
    expect(reads.count).toBe(before);
    // A whole address is set whole; the addresses are not read for it.
    const whole = await narrow(route, "requests from someone@else.test");
    expect(whole.uri).toBe("desk://requests?raised_by=someone%40else.test");
  });

  it("a word two addresses, or an address and another filter's record, hold applies neither and says so", async () => {
    const { route } = listing(["kim@corp.test", "kim.b@corp.test"], [{ value: "p_kim", label: "Kim" }]);
    const kim = await narrow(route, "kim requests");
    expect(kim.uri).toBe("desk://requests");
    expect(kim.ambiguous).toEqual([
      "`kim` names an owner and a raised by: not applied; add the one meant (`?owner_id=` or `?raised_by=`).",
    ]);
    const two = listing(["kim@corp.test", "kim.b@corp.test"]).route;
    const both = await narrow(two, "kim requests");
    expect(both.uri).toBe("desk://requests");
    expect(both.ambiguous).toEqual([
      "`kim` names 2 raised bys (`kim@corp.test`, `kim.b@corp.test`): not applied; add the one meant (`?raised_by=`).",
    ]);
  });
});
