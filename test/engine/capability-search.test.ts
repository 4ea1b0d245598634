// stays-whole: one ranking's cases (recall per set, clear leads, the phrasings played) on one index.
import { describe, expect, it } from "vitest";
import {
  capabilityRegistry,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "@/server/connectors/connector-registry";
import {
  buildCapabilityIndex,
  type CapabilityIndexOptions,
  capabilityHit,
  tokenize,
} from "@/server/engine/capability-search";
import { CLEAR_LEAD, opensWithVerbOf, topMatch } from "@/server/engine/top-match";
import {
  CAPABILITY_SEARCH_DEV_SET,
  CAPABILITY_SEARCH_EXISTING_RECORD,
  CAPABILITY_SEARCH_HELD_OUT,
  CAPABILITY_SEARCH_INDIRECT,
  CAPABILITY_SEARCH_INDIRECT_HELD_OUT,
  CAPABILITY_SEARCH_NOT_FOR,
  CAPABILITY_SEARCH_QUESTIONS,
  CAPABILITY_SEARCH_RECORD_TITLES,
  CAPABILITY_SEARCH_TRADITIONAL,
} from "./capability-search-dev-set";

// As the gateway builds it: id prefixes, synonyms and topic words come from the connectors.
const build = (options: Partial<CapabilityIndexOptions> = {}) =>
  buildCapabilityIndex([...capabilityRegistry().values()], {
    idPrefixes: recordIdPrefixes(),
    synonyms: searchSynonyms(),
    topics: searchTopics(),
    ...options,
  });
const index = build();

type Intent = { query: string; expected: string };
const CJK = /[\u3400-\u9fff]/;

/** recall@1 and recall@3 of `set` on `on`, with the misses (query → what came first). */
function recall(set: Intent[], on = index) {
  const ranks = set.map(({ query, expected }) => ({
    query,
    expected,
    got: on.search(query, 3).map((r) => r.capability),
  }));
  const at = (k: number) => ranks.filter((r) => r.got.slice(0, k).includes(r.expected)).length / ranks.length;
  return {
    r1: at(1),
    r3: at(3),
    misses: ranks
      .filter((r) => r.got[0] !== r.expected)
      .map((r) => `${r.query} → ${r.got.join(", ") || "nothing"} (want ${r.expected})`),
  };
}

const SETS: Record<string, Intent[]> = {
  "English, direct (dev)": CAPABILITY_SEARCH_DEV_SET.filter((i) => !CJK.test(i.query)),
  "simplified Chinese (dev)": CAPABILITY_SEARCH_DEV_SET.filter((i) => CJK.test(i.query)),
  "traditional Chinese (never tuned one by one)": CAPABILITY_SEARCH_TRADITIONAL,
  "indirect (dev)": CAPABILITY_SEARCH_INDIRECT,
  "held-out": CAPABILITY_SEARCH_HELD_OUT,
  "indirect, held-out": CAPABILITY_SEARCH_INDIRECT_HELD_OUT,
  "existing record named (dev)": CAPABILITY_SEARCH_EXISTING_RECORD,
};

describe("capability search (BM25 + synonyms, English and Chinese)", () => {
  it("questions about which records a change fits rank that change first, whatever asking words they hold", () => {
    const { r1, misses } = recall(CAPABILITY_SEARCH_QUESTIONS);
    expect(misses, `questions: recall@1 = ${r1.toFixed(3)}`).toEqual([]);
  });

  it("tokenizes Chinese into jieba's words plus bigrams (or bigrams alone) and English into stems", () => {
    expect(tokenize("我要退货退款", "bigrams")).toEqual(["我要", "要退", "退货", "货退", "退款"]);
    expect(tokenize("我要退货退款")).toEqual(["我要", "退货", "退款", "要退", "货退"]);
    expect(tokenize("Refunds for the returned items")).toEqual(["refund", "return", "item"]);
    expect(tokenize("shipped, shipping, ships")).toEqual(["ship", "ship", "ship"]);
  });

  it('"我要退货退款" finds after_sales first', () => {
    const [top] = index.search("我要退货退款");
    expect(top?.capability).toBe("after_sales");
    expect(top?.next_actions[0]).toMatchObject({ tool: "start_action", args: { capability: "after_sales" } });
    expect(top?.requires_approval).toBe(true);
    expect(top?.inputs).toContain("kind");
  });

  it("returns what an agent needs to start: trigger, prerequisites, inputs, side effects", () => {
    const [top] = index.search("Buy two of the item in my cart and ship it to the office");
    expect(top).toMatchObject({
      capability: "checkout",
      side_effects: expect.arrayContaining(["charges the payment method"]),
    });
    // from_cart: whether the items leave the cart once paid ("buy the tees from my cart").
    expect(top?.inputs).toEqual([
      "items",
      "from_cart",
      "address_id",
      "shipping_method",
      "coupon_code",
      "payment_type",
    ]);
  });

  it("an id in the query points at its entity through the prefix its connector declares", () => {
    expect(recordIdPrefixes()).toEqual({ ord_: "order", tkt_: "ticket" });
    const entityOf = (hits: Array<{ capability: string }>) =>
      hits.map((h) => capabilityRegistry().get(h.capability)?.appliesTo.entity);
    expect(entityOf(index.search("tkt_6", 3))).toEqual(["Ticket", "Ticket", "Ticket"]);
    expect(entityOf(index.search("ord_paid", 3))).toEqual(["Order", "Order", "Order"]);
    // The engine itself knows no connector's ids.
    expect(buildCapabilityIndex([...capabilityRegistry().values()]).search("tkt_6")).toEqual([]);
  });

  it("finds nothing for unrelated words", () => {
    expect(index.search("quantum chromodynamics lecture")).toEqual([]);
  });

  it("reaches recall@1 ≥ 0.9 on the public dev set", () => {
    const misses: string[] = [];
    for (const { query, expected } of CAPABILITY_SEARCH_DEV_SET) {
      const got = index.search(query, 3)[0]?.capability;
      if (got !== expected) misses.push(`${query} → ${got ?? "nothing"} (want ${expected})`);
    }
    const recall = (CAPABILITY_SEARCH_DEV_SET.length - misses.length) / CAPABILITY_SEARCH_DEV_SET.length;
    console.log(
      `capability search dev set: recall@1 = ${recall.toFixed(3)} (${CAPABILITY_SEARCH_DEV_SET.length} intents)${misses.length ? `\n  misses:\n  ${misses.join("\n  ")}` : ""}`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it("reports recall@1 on held-out intents it was never tuned on (≥ 0.75)", () => {
    const misses = CAPABILITY_SEARCH_HELD_OUT.filter(
      ({ query, expected }) => index.search(query, 3)[0]?.capability !== expected,
    );
    const recall = (CAPABILITY_SEARCH_HELD_OUT.length - misses.length) / CAPABILITY_SEARCH_HELD_OUT.length;
    console.log(
      `capability search held-out set: recall@1 = ${recall.toFixed(3)} (${CAPABILITY_SEARCH_HELD_OUT.length} intents)${misses.length ? `\n  misses:\n  ${misses.map((m) => `${m.query} → ${index.search(m.query, 3)[0]?.capability ?? "nothing"} (want ${m.expected})`).join("\n  ")}` : ""}`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.75);
  });

  it("finds intents written in traditional Chinese: recall@1 ≥ 0.8 and recall@3 ≥ 0.9", () => {
    const ranks = CAPABILITY_SEARCH_TRADITIONAL.map(({ query, expected }) => ({
      query,
      expected,
      got: index.search(query, 3).map((r) => r.capability),
    }));
    const at = (k: number) =>
      ranks.filter((r) => r.got.slice(0, k).includes(r.expected)).length / ranks.length;
    const misses = ranks.filter((r) => r.got[0] !== r.expected);
    console.log(
      `capability search traditional Chinese: recall@1 = ${at(1).toFixed(3)}, recall@3 = ${at(3).toFixed(3)} (${ranks.length} intents)${misses.length ? `\n  misses:\n  ${misses.map((m) => `${m.query} → ${m.got.join(", ") || "nothing"} (want ${m.expected})`).join("\n  ")}` : ""}`,
    );
    expect(at(1)).toBeGreaterThanOrEqual(0.8);
    expect(at(3)).toBeGreaterThanOrEqual(0.9);
  });

  it("folds traditional to simplified before splitting: the same terms either way", () => {
    expect(tokenize("申請換貨")).toEqual(tokenize("申请换货"));
  });

  it("ranks the outcome asked for over the topic talked about (indirect phrasings)", () => {
    // The issue's examples: a complaint about delivery that asks for money back is after-sales.
    expect(index.search("my parcel is late and I want my money back")[0]?.capability).toBe("after_sales");
    expect(index.search("the package never came, refund me")[0]?.capability).toBe("after_sales");
    // A ticket about a refund is still a ticket: the helpdesk outcome wins.
    expect(index.search("the customer's refund ticket is urgent, escalate it")[0]?.capability).toBe(
      "change_ticket_priority",
    );
    // The parcel alone still means tracking.
    expect(index.search("where is my parcel")[0]?.capability).toBe("track_shipment");
    const { r1, r3, misses } = recall(CAPABILITY_SEARCH_INDIRECT);
    console.log(
      `indirect dev set: recall@1 = ${r1.toFixed(3)}, recall@3 = ${r3.toFixed(3)}\n  ${misses.join("\n  ")}`,
    );
    expect(r1).toBeGreaterThanOrEqual(0.85);
    expect(r3).toBeGreaterThanOrEqual(0.95);
  });

  it("sent to an address is a redirect, sent back a return, the particle split from its verb or not (set K)", () => {
    const lead = (q: string) => {
      const [a, b] = index.search(q);
      return { top: a?.capability, clear: !!a && (b?.score ?? 0) < a.score / 2 };
    };
    for (const q of [
      "Send my kettle order to my home instead",
      "Send my paid lamp order to my office instead",
    ])
      expect(lead(q), q).toEqual({ top: "change_delivery_address", clear: true });
    for (const q of ["send the tee back", "I want to send back the two mugs", "send the broken kettle back"])
      expect(lead(q), q).toEqual({ top: "after_sales", clear: true });
  });

  it("two words the catalog writes as one are that word: 'check out my cart' is a checkout", () => {
    // Played (stop 64): "Check out my cart …" tied checkout with the cart's update on "out".
    for (const q of [
      "Check out my cart with express shipping to the office, paid by card.",
      "check out my cart",
      "Please check out everything in my cart, standard shipping to home",
    ]) {
      const match = topMatch(index.search(q, 10));
      // A start takes the best match at once when it leads clearly or the words open with its verb.
      const starts = !!match && (match.clear || opensWithVerbOf(q, match.hit.capability));
      expect({ top: match?.hit.capability, starts }, q).toEqual({ top: "checkout", starts: true });
    }
    expect(opensWithVerbOf("check the status of my order", "checkout")).toBe(false);
    // Review 64: a record named by its id is looked at, not bought.
    expect(opensWithVerbOf("Check out ord_transit and tell me when it arrives", "checkout")).toBe(false);
    // Review 64b: nor is an order named by what it holds.
    for (const q of [
      "check out the headphones order and tell me when it arrives",
      "check out the order I left unpaid",
    ])
      expect(opensWithVerbOf(q, "checkout", "Order"), q).toBe(false);
    expect(opensWithVerbOf("check out my cart", "checkout", "Order")).toBe(true);
  });

  // Set DG (both hosts): "Add a note for the team on the change delivery address ticket" tied the
  // comment with a move to another team, one call more.
  it("a light verb whose object is a word the capability's use lists opens with it", () => {
    const use = "A support operator wants a note or reply added to a ticket's thread (comment, note, reply).";
    for (const q of [
      "Add a note for the team on the change delivery address ticket: 'Customer called again.'",
      "Post an internal comment on tkt_4",
      "leave a reply on the kettle ticket",
    ])
      expect(opensWithVerbOf(q, "comment_ticket", "Ticket", use), q).toBe(true);
    for (const q of [
      "Add the team to the note",
      "Move the note ticket to the billing team",
      "add a hoodie",
      "Put the change delivery address ticket back to open",
    ])
      expect(opensWithVerbOf(q, "comment_ticket", "Ticket", use), q).toBe(false);
    // The first-ask tests' words: "change" names the ticket there, no change of priority.
    expect(
      opensWithVerbOf("Put the change delivery address ticket back to open", "change_ticket_priority"),
    ).toBe(false);
    // Review 68b: the capability's own verb as the object names no change of it.
    expect(
      opensWithVerbOf(
        "Make a change to the wrong size tee ticket: give it to Sara",
        "change_ticket_priority",
      ),
    ).toBe(false);
  });

  it("'buy the …' meant as a replacement is no clear purchase (review 64b)", () => {
    // Read as a new record, these started a checkout where an exchange was meant.
    for (const q of [
      "buy the tee in size L instead of the M I received, ship it home by standard shipping, pay with my balance",
      "buy the replacement for my broken mug, ship it to my office with standard shipping and pay by card",
    ]) {
      const match = topMatch(index.search(q, 10));
      expect(match?.hit.capability === "checkout" && match.clear, q).toBe(false);
    }
  });

  it("'mark X as Y' asks for Y: its verb and what it makes the record, past the record's name", () => {
    // Played: "mark" alone is the resolve's word too ("mark resolved"), and the two tied.
    const lead = (q: string) => {
      const [a, b] = index.search(q);
      return { top: a?.capability, clear: !!a && (b?.score ?? 0) < a.score / 2 };
    };
    for (const q of ["Mark the headphones ticket as pending.", "mark the wrong size tee ticket as pending"])
      expect(lead(q), q).toEqual({ top: "set_ticket_status", clear: true });
    expect(lead("mark the headphones ticket as resolved")).toEqual({ top: "resolve_ticket", clear: true });
  });

  it("reports recall@1 and @3 per set; the indirect held-out set reaches recall@1 ≥ 0.75", () => {
    const lines = Object.entries(SETS).map(([name, set]) => {
      const { r1, r3, misses } = recall(set);
      return `${name} (${set.length}): recall@1 ${r1.toFixed(3)}, recall@3 ${r3.toFixed(3)}${misses.length ? `\n    ${misses.join("\n    ")}` : ""}`;
    });
    console.log(`capability search, per set:\n  ${lines.join("\n  ")}`);
    expect(recall(CAPABILITY_SEARCH_INDIRECT_HELD_OUT).r1).toBeGreaterThanOrEqual(0.75);
  });

  it("jieba's words (with bigrams) find Chinese intents at least as well as bigrams alone", () => {
    const chinese = Object.values(SETS)
      .flat()
      .filter((i) => CJK.test(i.query));
    const jieba = recall(chinese, build({ chinese: "jieba+bigrams" }));
    const words = recall(chinese, build({ chinese: "jieba" }));
    const bigrams = recall(chinese, build({ chinese: "bigrams" }));
    console.log(
      `Chinese intents (${chinese.length}, all sets): jieba+bigrams recall@1 ${jieba.r1.toFixed(3)} @3 ${jieba.r3.toFixed(3)}; jieba alone ${words.r1.toFixed(3)} / ${words.r3.toFixed(3)}; bigrams alone ${bigrams.r1.toFixed(3)} / ${bigrams.r3.toFixed(3)}`,
    );
    expect(jieba.r1).toBeGreaterThanOrEqual(bigrams.r1);
    expect(jieba.r3).toBeGreaterThanOrEqual(bigrams.r3);
  });

  it("answers in milliseconds (timing logged, not asserted)", () => {
    const all = Object.values(SETS).flat();
    index.search("预热 warm up", 3);
    const started = performance.now();
    for (const { query } of all) index.search(query, 10);
    const each = (performance.now() - started) / all.length;
    const built = performance.now();
    build();
    console.log(
      `capability search: ${each.toFixed(3)} ms per query (${all.length} queries, limit 10); index built in ${(performance.now() - built).toFixed(1)} ms`,
    );
  });

  it.each([
    // Phrases and words that mean "cancel" and share no word with it (general English, not a
    // connector's list): the order is called off, not bought.
    { query: "call off the order I placed today", expected: "after_sales" },
    { query: "scrap my order", expected: "after_sales" },
    { query: "I want to withdraw my order", expected: "after_sales" },
    // "resolve" asked for is not the resolved ticket reopen_ticket applies to.
    { query: "resolve the login ticket", expected: "resolve_ticket" },
  ])("reads what the words ask for, clearly: $query", ({ query, expected }) => {
    const match = topMatch(index.search(query, 10).filter((h) => !h.not_for));
    expect(match?.hit.capability).toBe(expected);
    expect(match?.clear).toBe(true);
  });

  it.each([
    {
      query: "Exchange my delivered tee for size L",
      expected: "after_sales",
      never: "change_delivery_address",
    },
    { query: "swap my delivered tee for a large", expected: "after_sales", never: "change_delivery_address" },
    { query: "return the delivered kettle", expected: "after_sales", never: "change_delivery_address" },
    { query: "track the shipped kettle", expected: "track_shipment", never: "change_delivery_address" },
  ])(
    "a state word before the record's noun describes it, it asks nothing: $query",
    ({ query, expected, never }) => {
      const hits = index.search(query, 10);
      expect(hits[0]?.capability).toBe(expected);
      // The capability the state word names matches only on what the request is about.
      const described = hits.find((h) => h.capability === never);
      if (described) expect(described.topic_only).toBe(true);
      // "Deliver" asked for is still a delivery.
      expect(index.search("deliver the kettle to my office")[0]?.capability).toBe("change_delivery_address");
    },
  );

  it.each([
    {
      query: "return the kettle that was delivered",
      expected: "after_sales",
      never: "change_delivery_address",
    },
    {
      query: "track the order that was shipped",
      expected: "track_shipment",
      never: "change_delivery_address",
    },
  ])(
    "the state a relative clause names describes the record, it asks nothing: $query",
    ({ query, expected, never }) => {
      const hits = index.search(query, 10);
      expect(hits[0]?.capability).toBe(expected);
      expect(hits.find((h) => h.capability === never)?.topic_only).toBe(true);
    },
  );

  it("a request whose words the catalog does not know is told by its situation: no match is then topic-only", () => {
    const [top] = index.search("My order is waiting for payment. Use my balance.");
    expect(top).toMatchObject({ capability: "pay_order" });
    expect(top?.topic_only).toBeUndefined();
    // Words the catalog knows nowhere (list, late) leave every match topic-only, as before.
    expect(index.search("My order is late, list my orders").every((h) => h.topic_only)).toBe(true);
  });

  it.each(CAPABILITY_SEARCH_NOT_FOR)(
    "counts a capability's own 'Not for …' against it: $query",
    ({ query, expected, never }) => {
      const hits = index.search(query, 10);
      const match = topMatch(hits.filter((h) => !h.not_for));
      expect(match?.hit.capability).toBe(expected);
      expect(match?.clear).toBe(true);
      // The excluded one ranks below, and says which words of the request it is not for.
      const excluded = hits.find((h) => h.capability === never);
      if (excluded) expect(hits.indexOf(excluded)).toBeGreaterThan(0);
    },
  );

  it.each(CAPABILITY_SEARCH_RECORD_TITLES)(
    "reads a record's title as the record, not what is asked: $query",
    ({ query, expected }) => {
      // As a start by words searches: three matches, before the topic-only ones are dropped.
      const [best] = index.search(query, 3);
      expect(best?.capability).toBe(expected);
      expect(best?.topic_only).toBeUndefined();
      expect(best?.not_for).toBeUndefined();
    },
  );

  it("still counts a state said of the record against a capability not for it", () => {
    // A participle ("the closed ticket") against any "not for"; another word describing the record
    // ("the unpaid order") where the capability says it of its records ("Not for an unpaid order").
    const notFor = (query: string, id: string) =>
      index.search(query, 10).find((h) => h.capability === id)?.not_for;
    expect(notFor("make the closed ticket urgent", "change_ticket_priority")).toEqual(["clos"]);
    expect(notFor("refund the unpaid order", "after_sales")).toEqual(["unpaid"]);
    // Ranked below what the words ask ("change" of the record's title is no act assign_ticket
    // is not for): the limit cuts topic-only matches first.
    const hits = index.search("Reassign the change delivery address ticket to Sid", 10);
    const firstAside = hits.findIndex((h) => h.topic_only || h.not_for);
    expect(hits.slice(firstAside).every((h) => h.topic_only || h.not_for)).toBe(true);
  });

  it("marks the words a capability is not for, and not the words of a situation or a negation", () => {
    const checkout = index.search("cancel a paid order", 10).find((h) => h.capability === "checkout");
    expect(checkout?.not_for).toEqual(["cancel"]);
    // "hasn't shipped" asks no shipping; "still broken" is the situation, not the request.
    expect(
      index.search("refund it, it has not shipped", 10).find((h) => h.capability === "after_sales")?.not_for,
    ).toBeUndefined();
    expect(
      index
        .search("the customer says it is still broken, reopen tkt_6", 10)
        .find((h) => h.capability === "reopen_ticket")?.not_for,
    ).toBeUndefined();
    // A negation in a capability's parentheses ends with them: after-sales's "refund-only (not
    // shipped), return-and-refund or exchange (delivered)" does not make it not for deliveries.
    const afterSales = index.search("refund the kettle delivered yesterday", 10);
    expect(afterSales[0]?.capability).toBe("after_sales");
    expect(afterSales[0]?.not_for).toBeUndefined();
  });

  it("says how clearly the best hit wins: a clear lead is right on every set, a tie is not clear", () => {
    const rows = Object.values(SETS)
      .flat()
      .map(({ query, expected }) => ({ query, expected, match: topMatch(index.search(query, 10)) }));
    const clear = rows.filter((r) => r.match?.clear);
    const wrongClear = clear.filter((r) => r.match?.hit.capability !== r.expected);
    console.log(
      `clear best (lead ≥ ${CLEAR_LEAD}): ${clear.length} of ${rows.length} intents, ${wrongClear.length} of them wrong`,
    );
    expect(wrongClear.map((r) => `${r.query} → ${r.match?.hit.capability}`)).toEqual([]);
    expect(clear.length / rows.length).toBeGreaterThanOrEqual(0.7);

    // The checkout of stateful-business-actions.md: three clauses, all answered by checkout.
    const article = topMatch(index.search("two of these mugs, ship to the office, pay from my balance", 10));
    console.log(
      `"two of these mugs, ship to the office, pay from my balance": ${article?.hit.capability}, lead ${article?.lead}`,
    );
    expect(article?.hit.capability).toBe("checkout");

    const cap = (id: string) => {
      const c = capabilityRegistry().get(id);
      if (!c) throw new Error(id);
      return c;
    };
    expect(topMatch([])).toBeNull();
    expect(topMatch([capabilityHit(cap("checkout"), 4)])).toMatchObject({ lead: 1, clear: true });
    const tie = topMatch([capabilityHit(cap("checkout"), 4), capabilityHit(cap("after_sales"), 4)]);
    expect(tie).toMatchObject({ lead: 0, clear: false });
    expect(topMatch([capabilityHit(cap("checkout"), 4), capabilityHit(cap("after_sales"), 3)])).toMatchObject(
      {
        lead: 0.25,
        clear: false,
      },
    );
  });
});
