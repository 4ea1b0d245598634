import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/** Ids in the first cells of a listing's rows, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);

/**
 * Issue 23: "What did the customer say on the charged-twice ticket?" took a search (a listing of
 * one row) and a navigate to that row. Words that fit exactly one record by its text answer with
 * its page, as navigate opens it, after one line of where they found it: one call. Two records,
 * or a list asked for, stay a listing.
 */
describe("search: words that fit one record open its page", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const audited = async (after: number) =>
    (
      await w.db.auditEvent.findMany({
        where: { tenantId: "acme", seq: { gt: after } },
        orderBy: { seq: "asc" },
      })
    ).map((r) => `${r.operation} ${r.target ?? ""}`);
  const seq = async () => (await w.db.auditCounter.findUnique({ where: { tenantId: "acme" } }))?.seq ?? 0;

  it("a ticket found by its subject's words: its page, comments and actions, audited as navigate", async () => {
    const sam = await w.connect(w.keys.sam);
    const before = await seq();
    const res = await sam.callTool({ name: "search", arguments: { query: "charged twice ticket" } });
    const answer = text(res);
    expect(sc(res).outcome).toBe("applied");
    expect(answer).toContain(
      "Found by `charged twice` in [Tickets](helpdesk://tickets?q=charged%20twice): its one row.",
    );
    expect(answer).toContain("## [Ticket tkt_1](helpdesk://ticket/tkt_1) (opened here)");
    // What the customer said and what was noted internally: on the page, not one call away.
    expect(answer).toContain("I only clicked pay once.");
    expect(answer).toContain("Card processor shows one capture and one authorisation.");
    expect(answer).toContain("[comment_ticket](helpdesk://ticket/tkt_1/comment)");
    // Not the listing's rows, nor the other pages the words matched.
    expect(answer).not.toContain("| id | subject |");
    expect(answer).not.toContain("## Other pages");
    const links = (sc(res) as unknown as { links: string[] }).links;
    expect(links).toContain("helpdesk://ticket/tkt_1");
    expect(links).toContain("helpdesk://ticket/tkt_1/comment");
    expect(await audited(before)).toContain("browse.navigated helpdesk://ticket/tkt_1");
    // Without the kind's name, found by the systems' record search: the same page.
    const bare = text(await sam.callTool({ name: "search", arguments: { query: "kettle refund" } }));
    expect(bare).toContain(
      "Found by `kettle refund` in [Tickets](helpdesk://tickets): the one record holding every word (searched: subjects and descriptions of tickets; no other holds them).",
    );
    expect(bare).toContain("## [Ticket tkt_3](helpdesk://ticket/tkt_3) (opened here)");
    expect(bare).toContain("- **status:** pending");
    expect(bare).toContain("Bella Billing");
  });

  it("an order found by its items' words: its page", async () => {
    const alice = await w.connect(w.keys.alice);
    const res = await alice.callTool({ name: "search", arguments: { query: "headphones order" } });
    const answer = text(res);
    expect(sc(res).outcome).toBe("applied");
    expect(answer).toContain(
      "Found by `headphones` in [Orders](shop://orders): the one row showing every word.",
    );
    expect(answer).toContain("## [Order ord_transit](shop://order/ord_transit) (opened here)");
    expect(answer).toContain("Wireless Headphones");
    expect(answer).toContain("[track_shipment](shop://order/ord_transit/tracking)");
    expect(rowIds(answer)).not.toContain("ord_paid");
  });

  it("two records that fit stay a listing, and so does a list asked for", async () => {
    const alice = await w.connect(w.keys.alice);
    const kettle = text(await alice.callTool({ name: "search", arguments: { query: "kettle order" } }));
    expect(kettle).toContain("## [Orders](shop://orders) (opened here)");
    // Only the rows that show the word (set W: all eight were shown to name two).
    expect(kettle).toContain(
      "Shown: the 2 of the 8 rows whose cells hold `kettle` (the listing has no filter for it",
    );
    expect(rowIds(kettle)).toEqual(["ord_pending", "ord_delivered"]);
    expect(kettle).not.toContain("Found by");
    // Only the words the rows were picked by are named (set AR: "`spent kettle altogether`").
    const spent = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "How much have I spent on my kettle orders altogether?" },
      }),
    );
    expect(spent).toContain("rows whose cells hold `kettle` (");
    // A word that alone picks the same rows is the one named (set AV: "`headphones carrier`" left
    // the model unsure whether an order with no carrier yet was hidden).
    const carrier = text(
      await alice.callTool({ name: "search", arguments: { query: "headphones order shipment carrier" } }),
    );
    expect(carrier).toContain("Shown: the 1 of the 8 rows whose cells hold `headphones` (");
    expect(rowIds(carrier)).toEqual(["ord_transit"]);
    // A link sent as the words opens that page (set AY: its column names were searched for as
    // words, and the one row holding "shipping" was shown).
    const linked = text(
      await alice.callTool({
        name: "search",
        arguments: {
          query: "shop://orders?columns=shipping_method,shipping_price,shipping_owed_to_customer",
        },
      }),
    );
    expect(linked).toContain("(opened here)");
    expect(rowIds(linked)).toHaveLength(8);
    expect(linked).toMatch(/\| shipping_method \| shipping_price \| shipping_owed_to_customer \|/);
    expect(rowIds(spent)).toEqual(["ord_pending", "ord_delivered"]);
    const sam = await w.connect(w.keys.sam);
    // A product and a ticket both hold the word.
    const both = text(await sam.callTool({ name: "search", arguments: { query: "kettle" } }));
    expect(both).toContain("## Records");
    expect(both).not.toContain("(opened here)");
    // One ticket holds the word, but so do a form's words: which was meant is not known.
    const refund = text(await sam.callTool({ name: "search", arguments: { query: "refund" } }));
    expect(refund).toContain("## Records");
    expect(refund).toContain("after-sales");
    expect(refund).not.toContain("(opened here)");
    // "tickets", "which …s", "list": the listing, though one row fits.
    for (const query of [
      "tickets about charged twice",
      "which tickets mention charged twice",
      "list charged twice ticket",
    ]) {
      const listed = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(listed, query).toContain("## [Tickets](helpdesk://tickets?q=charged%20twice) (opened here)");
      expect(rowIds(listed), query).toEqual(["tkt_1"]);
      expect(listed, query).not.toContain("Found by");
    }
  });

  it("a record named by its title's words with a negation: its page, by those words", async () => {
    const sam = await w.connect(w.keys.sam);
    // Played: `coupon applied` (the "not" dropped) matched no subject; the one ticket holding
    // `coupon` was listed, and the model navigated to it next.
    const res = await sam.callTool({ name: "search", arguments: { query: "coupon not applied ticket" } });
    const answer = text(res);
    expect(sc(res).outcome).toBe("applied");
    // Found by every word, the ticket's own among them (a page of coupons is named by `coupon` too).
    expect(answer).toContain(
      "Found by `coupon not applied ticket` in [Tickets](helpdesk://tickets): the one record holding every word (searched: subjects and descriptions of tickets; no other holds them).",
    );
    expect(answer).toContain("## [Ticket tkt_5](helpdesk://ticket/tkt_5) (opened here)");
    expect(answer).toContain("[reopen_ticket](helpdesk://ticket/tkt_5/reopen)");
    expect(answer).not.toContain("| id | subject |");
  });

  it("one row found by part of the words: its page, said as found by that part; several stay a listing", async () => {
    const sam = await w.connect(w.keys.sam);
    // No text says "coupon never applied"; `coupon` alone finds one ticket, its subject showing it.
    const one = text(
      await sam.callTool({ name: "search", arguments: { query: "coupon never applied ticket" } }),
    );
    expect(one).toContain(
      "Found by `coupon` alone, not every word of `coupon never applied`, in [Tickets](helpdesk://tickets?q=coupon): its one row.",
    );
    expect(one).toContain("## [Ticket tkt_5](helpdesk://ticket/tkt_5) (opened here)");
    expect(one).toContain("## Actions");
    expect(one).not.toContain("| id | subject |");
    // Set BQ: the system's filter reads the words as one phrase, so `damaged` alone found "Parcel
    // damaged"; its page says `parcel` too, so it was found by every word, not by part of them.
    const every = text(await sam.callTool({ name: "search", arguments: { query: "ticket damaged parcel" } }));
    expect(every).toContain(
      "Found by `damaged parcel` in [Tickets](helpdesk://tickets?q=damaged): its one row.",
    );
    expect(every).not.toContain("alone");
    // Review 61: a field's label or an action's line is no word of the record's.
    const label = text(
      await sam.callTool({ name: "search", arguments: { query: "damaged approval ticket" } }),
    );
    expect(label).toContain("Found by `damaged` alone, not every word of `damaged approval`");
    // `delivery` alone holds two tickets: the listing, as before.
    const two = text(
      await sam.callTool({ name: "search", arguments: { query: "delivery never came ticket" } }),
    );
    expect(two).toContain(
      "No ticket matches every word of `delivery never came` (searched: subjects and descriptions of tickets); these hold `delivery`:",
    );
    expect(rowIds(two).sort()).toEqual(["tkt_4", "tkt_8"]);
    expect(two).not.toContain("Found by");
    // Asked in the plural: the listing, though one row holds the word.
    const listed = text(
      await sam.callTool({ name: "search", arguments: { query: "tickets coupon never applied" } }),
    );
    expect(listed).toContain("these hold `coupon`:");
    expect(rowIds(listed)).toEqual(["tkt_5"]);
    expect(listed).not.toContain("Found by");
  });

  it("the record's page is navigate's: a record the caller may not open leaves the listing", async () => {
    const rule = await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent.sam.agentId ?? null,
        verb: "navigate",
        pattern: "helpdesk://ticket/tkt_1",
        decision: "deny",
        position: -50,
      },
    });
    try {
      const sam = await w.connect(w.keys.sam);
      const answer = text(
        await sam.callTool({ name: "search", arguments: { query: "charged twice ticket" } }),
      );
      expect(answer).not.toContain("I only clicked pay once.");
      expect(answer).not.toContain("(helpdesk://ticket/tkt_1) (opened here)");
    } finally {
      await w.db.permissionRule.delete({ where: { id: rule.id } });
    }
  });
});

describe("search: words that fit one record of an imported system", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());

  it("its listing's free-text parameter leaves one row: that record's page", async () => {
    const sam = await w.connect(w.keys.sam);
    const answer = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy ticket headphones", scheme: "legacy" },
      }),
    );
    expect(answer).toMatch(
      /^Found by `headphones` in \[[^\]]+\]\(legacy:\/\/v1\/tickets\?q=headphones\): its one row\.$/m,
    );
    expect(answer).toMatch(/\(legacy:\/\/v1\/tickets\/tkt_2\) \(opened here\)/);
    expect(answer).toContain("Where are my headphones?");
    // Said in the plural, the listing.
    const listed = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "legacy tickets headphones", scheme: "legacy" },
      }),
    );
    expect(listed).toMatch(/\(legacy:\/\/v1\/tickets\?q=headphones\) \(opened here\)/);
  });
});
