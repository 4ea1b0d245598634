import { describe, expect, it } from "vitest";
import { capabilityRegistry, recordIdPrefixes, searchSynonyms } from "@/server/connectors/connector-registry";
import { buildCapabilityIndex, tokenize } from "@/server/engine/capability-search";
import {
  CAPABILITY_SEARCH_DEV_SET,
  CAPABILITY_SEARCH_HELD_OUT,
  CAPABILITY_SEARCH_TRADITIONAL,
} from "./capability-search-dev-set";

// As the gateway builds it: the id prefixes come from the connectors, not from the engine.
const index = buildCapabilityIndex([...capabilityRegistry().values()], {
  idPrefixes: recordIdPrefixes(),
  synonyms: searchSynonyms(),
});

describe("capability search (BM25 + synonyms, English and Chinese)", () => {
  it("tokenizes Chinese into bigrams and English into stems", () => {
    expect(tokenize("我要退货退款")).toEqual(["我要", "要退", "退货", "货退", "退款"]);
    expect(tokenize("Refunds for the returned items")).toEqual(["refund", "return", "item"]);
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
    expect(top?.inputs).toEqual(["items", "address_id", "shipping_method", "coupon_code", "payment_type"]);
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

  it("finds intents written in traditional Chinese: recall@1 ≥ 0.8 and recall@3 ≥ 0.9, in milliseconds", () => {
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
    const started = performance.now();
    for (const { query } of CAPABILITY_SEARCH_TRADITIONAL) index.search(query, 3);
    expect((performance.now() - started) / CAPABILITY_SEARCH_TRADITIONAL.length).toBeLessThan(5);
  });

  it("folds traditional to simplified before splitting: the same terms either way", () => {
    expect(tokenize("申請換貨")).toEqual(tokenize("申请换货"));
  });
});
