import { describe, expect, it } from "vitest";
import {
  capabilityRegistry,
  recordIdPrefixes,
  searchSynonyms,
  searchTopics,
} from "@/server/connectors/connector-registry";
import { buildCapabilityIndex } from "@/server/engine/capability-search";
import { CAPABILITY_SEARCH_EXISTING_RECORD } from "./capability-search-dev-set";

const index = buildCapabilityIndex([...capabilityRegistry().values()], {
  idPrefixes: recordIdPrefixes(),
  synonyms: searchSynonyms(),
  topics: searchTopics(),
});

describe("a record of the user's named with a verb done on it (capability search)", () => {
  it.each(CAPABILITY_SEARCH_EXISTING_RECORD)(
    "the capability of that record comes first, not one making a new record: $query",
    ({ query, expected, never }) => {
      const hits = index.search(query, 10);
      expect(hits[0]?.capability, hits.map((h) => `${h.capability} ${h.score}`).join(", ")).toBe(expected);
      const other = hits.find((h) => h.capability === never);
      if (other) expect(other.score).toBeLessThan((hits[0]?.score ?? 0) / 2);
    },
  );

  it("an order to make ('place an order', 'order the same mug') is still a checkout", () => {
    for (const q of [
      "place an order for the mug and pay with my balance",
      "order the same mug again and ship it to my home",
      "Order the same kettle as my last order",
      "Buy two of the item in my cart and ship it to the office",
    ])
      expect(index.search(q, 3)[0]?.capability, q).toBe("checkout");
  });

  // Set AG: "order" as the verb matched every capability of orders alike, and "in size M" (an
  // exchange's words) or "to my office" (an address change's) decided.
  it("a request opening with a record's name and how many ('order two …') makes a new one", () => {
    for (const q of [
      "Order two Logo Tees in size M",
      "Order two Logo Tees in size M, express to my office, pay by card, and use a coupon if one applies.",
      "Order two mugs, express to my office",
      "order a Hoodie in size M and ship it to my home",
      "order 3 mugs to the office",
      "Order another kettle, the same as last time",
    ]) {
      const hits = index.search(q, 10);
      expect(hits[0]?.capability, `${q}: ${hits.map((h) => `${h.capability} ${h.score}`).join(", ")}`).toBe(
        "checkout",
      );
    }
    // An order already there, named as the subject, keeps its capabilities.
    for (const [q, want] of [
      ["Order arrived broken, I want my money back", "after_sales"],
      ["order ord_paid: send it to my office instead", "change_delivery_address"],
      // Review 52b: an act on one there, or the record's own number, is no order to make.
      ["order a cancellation of ord_pending", "cancel_unpaid_order"],
      ["order a replacement for the broken mug from ord_delivered", "after_sales"],
      ["order 2 arrived broken", "after_sales"],
      ["order a return for the kettle", "after_sales"],
      ["order 2 arrived broken, I want my money back", "after_sales"],
    ] as const)
      expect(index.search(q, 3)[0]?.capability, q).toBe(want);
  });
});

// "取消我未付款的订单" (cancel my unpaid order) found the payment first, by its "未付款" (unpaid):
// the Chinese "cancel" is read as "cancel" is, and the payment is not for cancelling.
describe("the Chinese word for cancel (capability search)", () => {
  it("never finds the payment of the order it cancels", () => {
    for (const q of ["取消我未付款的订单", "取消待付款订单"]) {
      const hits = index.search(q, 10);
      const pay = hits.find((h) => h.capability === "pay_order");
      expect(pay?.not_for, q).toContain("cancel");
      expect(hits[0]?.capability, q).not.toBe("pay_order");
    }
    expect(index.search("支付我的待付款订单", 3)[0]?.capability).toBe("pay_order");
  });
});

// Set CS: "Change my unpaid order to go to my home address" was said to "ask to unpaid" (the
// payment's word), and the address change held for a check. A state word naming the record is no
// verb of the request; "buy the unpaid kettle" still asks to buy.
describe("the verb a request asks by (capability search)", () => {
  it("is never a state word naming the record", () => {
    const [first] = index.search("Change my unpaid order to go to my home address.", 3);
    expect(first?.capability).toBe("change_delivery_address");
    expect(first?.verb_elsewhere ?? []).toEqual([]);
    const buy = index.search("Buy the unpaid kettle", 5).find((h) => h.capability === "cancel_unpaid_order");
    expect(buy?.verb_elsewhere).toEqual(["buy"]);
  });
});
