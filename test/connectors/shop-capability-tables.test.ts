import { afterAll, beforeAll, describe, it } from "vitest";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import {
  check,
  confirmUnapproved,
  decideAs,
  execute,
  type Row,
  ready,
  staleAdvance,
  start,
  startRaw,
  startThenAdvance,
  verified,
  withRule,
} from "./capability-table-helpers";

/**
 * Table-driven contract tests of the shop's write capabilities through the gateway, against the
 * real legacy service: ≥10 valid, ≥10 ambiguous or incomplete, ≥10 unauthorized or stale
 * requests each, with the outcome each must get.
 */

const mug2 = { items: [{ product_id: "prod_mug", quantity: 2 }] };
const full = { ...mug2, address_id: "Office", payment_type: "balance" };

const checkout: Record<"valid" | "ambiguous" | "unauthorized", Row[]> = {
  valid: [
    [
      "two mugs, office, balance (the article's sentence)",
      start("alice", "checkout", undefined, full),
      { ...ready, node: "CONFIRM_ORDER", status: "awaiting_approval" },
    ],
    [
      "one mug to Home by card",
      start("alice", "checkout", undefined, {
        items: [{ product_id: "prod_mug", quantity: 1 }],
        address_id: "Home",
        payment_type: "card",
      }),
      ready,
    ],
    [
      "lamp with SAVE30",
      start("alice", "checkout", undefined, {
        items: [{ product_id: "prod_lamp", quantity: 1 }],
        address_id: "Office",
        coupon_code: "SAVE30",
        payment_type: "card",
      }),
      ready,
    ],
    [
      "kettle + mug, express",
      start("alice", "checkout", undefined, {
        items: [
          { product_id: "prod_kettle", quantity: 1 },
          { product_id: "prod_mug", quantity: 1 },
        ],
        address_id: "Home",
        shipping_method: "express",
        payment_type: "balance",
      }),
      ready,
    ],
    [
      "three tees, standard",
      start("alice", "checkout", undefined, {
        items: [{ product_id: "prod_tee", quantity: 3 }],
        address_id: "Office",
        shipping_method: "standard",
        payment_type: "card",
      }),
      ready,
    ],
    [
      "address by id",
      start("alice", "checkout", undefined, { ...mug2, address_id: "addr_alice_home", payment_type: "card" }),
      ready,
    ],
    [
      "address label in lower case",
      start("alice", "checkout", undefined, { ...mug2, address_id: "office", payment_type: "card" }),
      ready,
    ],
    [
      "hoodie with SAVE5",
      start("alice", "checkout", undefined, {
        items: [{ product_id: "prod_hoodie", quantity: 1 }],
        address_id: "Office",
        coupon_code: "SAVE5",
        payment_type: "balance",
      }),
      ready,
    ],
    [
      "same-day to the office in the warehouse city",
      start("alice", "checkout", undefined, {
        ...mug2,
        address_id: "Office",
        shipping_method: "same_day",
        payment_type: "card",
      }),
      ready,
    ],
    [
      "an admin buying for himself",
      start("adam", "checkout", undefined, { ...mug2, address_id: "Home", payment_type: "card" }),
      ready,
    ],
    [
      "dry run previews the confirmation",
      start("alice", "checkout", undefined, full, { dry_run: true }),
      { outcome: "preview", node: "CONFIRM_ORDER" },
    ],
    ["the whole flow charges once and verifies", execute("alice", "checkout", undefined, full), verified],
  ],
  ambiguous: [
    [
      "nothing said yet",
      start("alice", "checkout"),
      { outcome: "input_required", node: "ITEMS", missing: ["items"] },
    ],
    [
      "items only",
      start("alice", "checkout", undefined, mug2),
      { outcome: "input_required", node: "ADDRESS", missing: ["address_id"] },
    ],
    [
      "no payment method",
      start("alice", "checkout", undefined, { ...mug2, address_id: "Office" }),
      { outcome: "input_required", node: "PAYMENT", missing: ["payment_type"] },
    ],
    [
      "unknown product",
      start("alice", "checkout", undefined, {
        ...full,
        items: [{ product_id: "prod_unicorn", quantity: 1 }],
      }),
      { outcome: "input_required", node: "ITEMS", code: "unknown_product" },
    ],
    [
      "sold out",
      start("alice", "checkout", undefined, { ...full, items: [{ product_id: "prod_tee_xl", quantity: 1 }] }),
      { outcome: "input_required", code: "insufficient_stock" },
    ],
    [
      "an address the user does not have",
      start("alice", "checkout", undefined, { ...full, address_id: "Moon base" }),
      { outcome: "input_required", node: "ADDRESS", code: "unknown_address" },
    ],
    [
      "a coupon below its minimum",
      start("alice", "checkout", undefined, { ...full, coupon_code: "SAVE30" }),
      { outcome: "input_required", node: "COUPON", code: "coupon_not_eligible" },
    ],
    [
      "an unknown coupon",
      start("alice", "checkout", undefined, { ...full, coupon_code: "FREE100" }),
      { outcome: "input_required", code: "unknown_coupon" },
    ],
    [
      "quantity zero",
      start("alice", "checkout", undefined, { ...full, items: [{ product_id: "prod_mug", quantity: 0 }] }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "same-day outside the warehouse city",
      start("alice", "checkout", undefined, { ...full, address_id: "Home", shipping_method: "same_day" }),
      { outcome: "input_required", node: "SHIPPING", code: "shipping_method_unavailable" },
    ],
    [
      "the same product twice",
      start("alice", "checkout", undefined, {
        ...full,
        items: [
          { product_id: "prod_mug", quantity: 1 },
          { product_id: "prod_mug", quantity: 2 },
        ],
      }),
      { outcome: "input_required", code: "duplicate_item" },
    ],
    [
      "an unsupported payment type",
      start("alice", "checkout", undefined, { ...full, payment_type: "crypto" }),
      { outcome: "input_required", code: "invalid_value" },
    ],
  ],
  unauthorized: [
    [
      "tenant in the arguments",
      startRaw("alice", { capability: "checkout", tenant_id: "globex" }),
      { outcome: "rejected", reason: "invalid_arguments", says: /tenant_id/ },
    ],
    [
      "user in the patch",
      start("alice", "checkout", undefined, { ...full, user_id: "someone" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "an unknown capability",
      start("alice", "checkout_everything"),
      { outcome: "not_found", reason: "unknown_capability" },
    ],
    [
      "a stale version",
      staleAdvance("alice", "checkout", undefined, full, { shipping_method: "express" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "confirm without approval",
      confirmUnapproved("alice", "checkout", undefined, full),
      { outcome: "rejected", reason: "approval_pending" },
    ],
    [
      "confirm by another user's agent",
      confirmUnapproved("alice", "checkout", undefined, full, "sam"),
      { outcome: "not_found" },
    ],
    [
      "the agent approving its own charge",
      decideAs("alice", "checkout", undefined, full, { kind: "agent", who: "alice" }),
      { outcome: "rejected", reason: "person_required" },
    ],
    [
      "support approving a user's charge",
      decideAs("alice", "checkout", undefined, full, { kind: "person", who: "sam" }),
      { outcome: "rejected", reason: "not_your_approval" },
    ],
    [
      "another tenant's person approving",
      decideAs("alice", "checkout", undefined, full, { kind: "person", who: "gina" }),
      { outcome: "not_found" },
    ],
    [
      "a deny rule",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:checkout", decision: "deny" },
        start("alice", "checkout", undefined, full),
      ),
      { outcome: "rejected", reason: "permission_denied" },
    ],
    [
      "an ask rule",
      withRule(
        "alice",
        { verb: "*", pattern: "capability:check*", decision: "ask" },
        start("alice", "checkout", undefined, full),
      ),
      { outcome: "rejected", reason: "permission_required" },
    ],
    [
      "another tenant advancing the action",
      startThenAdvance("alice", "checkout", undefined, mug2, { address_id: "Office" }, "gina"),
      { outcome: "not_found" },
    ],
  ],
};

const afterSales: typeof checkout = {
  valid: [
    [
      "paid, not shipped: refund-only is chosen",
      start("alice", "after_sales", "ord_paid", { reason: "changed my mind" }),
      { ...ready, node: "CONFIRM_REQUEST", status: "awaiting_approval" },
    ],
    [
      "refund-only, partial amount",
      start("alice", "after_sales", "ord_paid", {
        kind: "refund_only",
        reason: "keep the mug",
        amount: 1000,
      }),
      ready,
    ],
    [
      "delivered: return and refund",
      start("alice", "after_sales", "ord_delivered", { reason: "too loud" }),
      ready,
    ],
    [
      "return one item",
      start("alice", "after_sales", "ord_delivered", {
        reason: "too loud",
        item_ids: ["ord_delivered_item_1"],
      }),
      ready,
    ],
    [
      "damage claim with evidence",
      start("alice", "after_sales", "ord_delivered", {
        reason: "arrived damaged",
        evidence: ["https://img.example/1.jpg"],
      }),
      ready,
    ],
    [
      "exchange a tee for a smaller size",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        reason: "too big",
        replacement_product_id: "prod_tee_s",
      }),
      ready,
    ],
    [
      "return on an exchangeable order",
      start("alice", "after_sales", "ord_exchange", { kind: "return_refund", reason: "not needed" }),
      ready,
    ],
    [
      "shipping difference refund",
      start("alice", "after_sales", "ord_shipdiff", {
        kind: "shipping_refund",
        reason: "overcharged shipping",
      }),
      ready,
    ],
    [
      "return on the overcharged order",
      start("alice", "after_sales", "ord_shipdiff", { kind: "return_refund", reason: "wrong colour" }),
      ready,
    ],
    [
      "exchange naming the item",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too small",
        replacement_product_id: "prod_tee_l",
      }),
      ready,
    ],
    [
      "support starting it for the customer",
      start("sam", "after_sales", "ord_paid", { reason: "customer asked by phone" }),
      ready,
    ],
    [
      "refund-only executes once and verifies",
      execute("alice", "after_sales", "ord_paid", { reason: "changed my mind" }),
      verified,
    ],
  ],
  ambiguous: [
    [
      "no order named",
      start("alice", "after_sales"),
      { outcome: "input_required", node: "ORDER", missing: ["order_id"] },
    ],
    [
      "no reason",
      start("alice", "after_sales", "ord_paid"),
      { outcome: "input_required", node: "DETAILS", missing: ["reason"] },
    ],
    [
      "return or exchange? not said",
      start("alice", "after_sales", "ord_exchange", { reason: "hmm" }),
      { outcome: "input_required", node: "PATH", missing: ["kind"] },
    ],
    [
      "damage without evidence",
      start("alice", "after_sales", "ord_delivered", { reason: "it is broken" }),
      { outcome: "input_required", missing: ["evidence"] },
    ],
    [
      "exchange without a replacement",
      start("alice", "after_sales", "ord_exchange", { kind: "exchange", reason: "too big" }),
      { outcome: "input_required", missing: ["replacement_product_id"] },
    ],
    [
      "replacement at another price",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        reason: "too big",
        replacement_product_id: "prod_hoodie",
      }),
      { outcome: "input_required", code: "not_a_replacement" },
    ],
    [
      "replacement sold out",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        reason: "too big",
        replacement_product_id: "prod_tee_xl",
      }),
      { outcome: "input_required", code: "out_of_stock" },
    ],
    [
      "refund more than was paid",
      start("alice", "after_sales", "ord_paid", { reason: "x x x", amount: 99_999_999 }),
      { outcome: "input_required", code: "amount_too_high" },
    ],
    [
      "return an item not in the order",
      start("alice", "after_sales", "ord_delivered", { reason: "too loud", item_ids: ["itm_nope"] }),
      { outcome: "input_required", code: "unknown_item" },
    ],
    [
      "in transit: nothing applies yet",
      start("alice", "after_sales", "ord_transit"),
      { outcome: "rejected", code: "no_after_sales_available", says: /in transit/ },
    ],
    [
      "refund-only in transit is refused with the reason",
      start("alice", "after_sales", "ord_transit", { kind: "refund_only", reason: "too slow" }),
      // Nothing else is possible on this order either: a refusal, and it is labelled one.
      {
        outcome: "rejected",
        node: "PATH",
        code: "order_already_shipped",
        says: /in transit.*only possible before shipment/,
      },
    ],
    [
      "refund-only after delivery is refused",
      start("alice", "after_sales", "ord_delivered", { kind: "refund_only", reason: "x x x" }),
      { outcome: "input_required", code: "order_already_shipped", says: /return and refund/ },
    ],
    [
      "return window closed",
      start("alice", "after_sales", "ord_delivered_old", { kind: "return_refund", reason: "x x x" }),
      { outcome: "rejected", code: "return_window_closed" },
    ],
    [
      "unpaid order",
      start("alice", "after_sales", "ord_pending"),
      { outcome: "rejected", code: "no_after_sales_available", says: /cancel/ },
    ],
    [
      "cancelled order",
      start("alice", "after_sales", "ord_cancelled"),
      { outcome: "rejected", code: "no_after_sales_available" },
    ],
    [
      "exchange before delivery",
      start("alice", "after_sales", "ord_paid", { kind: "exchange", reason: "x x x" }),
      { outcome: "input_required", code: "order_not_delivered" },
    ],
  ],
  unauthorized: [
    ["another tenant's user", start("gina", "after_sales", "ord_paid"), { outcome: "not_found" }],
    ["an order that does not exist", start("alice", "after_sales", "ord_nope"), { outcome: "not_found" }],
    [
      "role in the arguments",
      startRaw("alice", { capability: "after_sales", entity_id: "ord_paid", role: "admin" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "an unknown patch field",
      start("alice", "after_sales", "ord_paid", { refund_to: "my other card" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "switching the order mid-action",
      startThenAdvance("alice", "after_sales", "ord_paid", {}, { order_id: "ord_delivered" }),
      { outcome: "rejected", reason: "field_not_allowed", code: "field_locked" },
    ],
    [
      "a stale version",
      staleAdvance("alice", "after_sales", "ord_paid", {}, { reason: "x x x" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "confirm without approval",
      confirmUnapproved("alice", "after_sales", "ord_paid", { reason: "x x x" }),
      { outcome: "rejected", reason: "approval_pending" },
    ],
    [
      "support approving the refund",
      decideAs("alice", "after_sales", "ord_paid", { reason: "x x x" }, { kind: "person", who: "sam" }),
      { outcome: "rejected", reason: "not_your_approval" },
    ],
    [
      "the agent approving",
      decideAs("alice", "after_sales", "ord_paid", { reason: "x x x" }, { kind: "agent", who: "alice" }),
      { outcome: "rejected", reason: "person_required" },
    ],
    [
      "an admin may not approve Alice's refund",
      decideAs("alice", "after_sales", "ord_paid", { reason: "x x x" }, { kind: "person", who: "adam" }),
      { outcome: "rejected", reason: "not_your_approval", says: /^Only Alice can decide this action/ },
    ],
    [
      "another tenant reading the action",
      async (w) => {
        const s = await start("alice", "after_sales", "ord_paid")(w);
        return w.gw.getContext(w.agent.gina, { action_id: s.action_id });
      },
      { outcome: "not_found" },
    ],
    [
      "an ask rule on refunds",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:after_sales", decision: "ask" },
        start("alice", "after_sales", "ord_paid"),
      ),
      { outcome: "rejected", reason: "permission_required" },
    ],
  ],
};

const changeAddress: typeof checkout = {
  valid: [
    [
      "paid order to Home",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      { ...ready, node: "CONFIRM_CHANGE", status: "open" },
    ],
    [
      "label in lower case",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "home" }),
      ready,
    ],
    [
      "address by id",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "addr_alice_home" }),
      ready,
    ],
    [
      "unpaid order to Home",
      start("alice", "change_delivery_address", "ord_pending", { address_id: "Home" }),
      ready,
    ],
    [
      "unpaid order by id",
      start("alice", "change_delivery_address", "ord_pending", { address_id: "addr_alice_home" }),
      ready,
    ],
    [
      "support for the customer",
      start("sam", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      ready,
    ],
    [
      "admin for the customer",
      start("adam", "change_delivery_address", "ord_pending", { address_id: "Home" }),
      ready,
    ],
    [
      "dry run",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }, { dry_run: true }),
      { outcome: "preview", node: "CONFIRM_CHANGE" },
    ],
    [
      "two steps",
      startThenAdvance("alice", "change_delivery_address", "ord_paid", {}, { address_id: "Home" }),
      ready,
    ],
    [
      "the order view offers it",
      (w) => w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" }),
      { outcome: "applied" },
    ],
    [
      "no approval needed: executes and verifies",
      execute("alice", "change_delivery_address", "ord_pending", { address_id: "Home" }),
      verified,
    ],
  ],
  ambiguous: [
    [
      "no order",
      start("alice", "change_delivery_address"),
      { outcome: "input_required", missing: ["order_id"] },
    ],
    [
      "no address",
      start("alice", "change_delivery_address", "ord_paid"),
      { outcome: "input_required", node: "ADDRESS", missing: ["address_id"] },
    ],
    [
      "the address it already has",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Office" }),
      { outcome: "input_required", code: "same_address" },
    ],
    [
      "an unknown address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "the beach" }),
      { outcome: "input_required", code: "unknown_address" },
    ],
    [
      "someone else's address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "addr_adam_home" }),
      { outcome: "input_required", code: "unknown_address" },
    ],
    [
      "refused after shipment (in transit)",
      start("alice", "change_delivery_address", "ord_transit", { address_id: "Office" }),
      { outcome: "input_required", node: "ORDER", code: "order_already_shipped", says: /already shipped/ },
    ],
    [
      "refused after delivery",
      start("alice", "change_delivery_address", "ord_delivered", { address_id: "Home" }),
      { outcome: "input_required", code: "order_already_shipped" },
    ],
    [
      "cancelled order",
      start("alice", "change_delivery_address", "ord_cancelled", { address_id: "Office" }),
      { outcome: "input_required", code: "order_cancelled" },
    ],
    [
      "an empty address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "" }),
      { outcome: "input_required", missing: ["address_id"] },
    ],
    [
      "a number for an address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: 5 }),
      { outcome: "input_required", code: "invalid_value" },
    ],
    [
      "another delivered order",
      start("alice", "change_delivery_address", "ord_exchange", { address_id: "Office" }),
      { outcome: "input_required", code: "order_already_shipped" },
    ],
  ],
  unauthorized: [
    [
      "another tenant",
      start("gina", "change_delivery_address", "ord_paid", { address_id: "Office" }),
      { outcome: "not_found" },
    ],
    [
      "user in the arguments",
      startRaw("alice", { capability: "change_delivery_address", entity_id: "ord_paid", user_id: "u1" }),
      { outcome: "rejected", reason: "invalid_arguments" },
    ],
    [
      "a stale version",
      staleAdvance("alice", "change_delivery_address", "ord_paid", {}, { address_id: "Home" }),
      { outcome: "conflict", reason: "stale_version" },
    ],
    [
      "switching orders",
      startThenAdvance("alice", "change_delivery_address", "ord_paid", {}, { order_id: "ord_pending" }),
      { outcome: "rejected", code: "field_locked" },
    ],
    [
      "an unknown field",
      start("alice", "change_delivery_address", "ord_paid", { address: "1 Main St" }),
      { outcome: "rejected", reason: "field_not_allowed" },
    ],
    [
      "a deny rule",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:change_*", decision: "deny" },
        start("alice", "change_delivery_address", "ord_paid"),
      ),
      { outcome: "rejected", reason: "permission_denied" },
    ],
    [
      "another user's agent confirming",
      confirmUnapproved("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }, "sam"),
      { outcome: "not_found" },
    ],
    [
      "confirm before the address is known",
      confirmUnapproved("alice", "change_delivery_address", "ord_paid", {}),
      { outcome: "rejected", reason: "not_in_next_actions" },
    ],
    ["an unknown order", start("alice", "change_delivery_address", "ord_nope"), { outcome: "not_found" }],
    [
      "another tenant's order view",
      (w) => w.gw.getContext(w.agent.gina, { entity: "order", entity_id: "ord_paid" }),
      { outcome: "not_found" },
    ],
    [
      "a confirm deny rule",
      withRule(
        "alice",
        { verb: "confirm", pattern: "**", decision: "deny" },
        confirmUnapproved("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      ),
      { outcome: "rejected", reason: "permission_denied" },
    ],
  ],
};

const suites = { checkout, after_sales: afterSales, change_delivery_address: changeAddress };

describeEachProvider("shop write capabilities, table-driven (%s, real legacy service)", (provider) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(provider);
  });
  afterAll(async () => w?.close());

  for (const [capability, table] of Object.entries(suites)) {
    for (const kind of ["valid", "ambiguous", "unauthorized"] as const) {
      describe(`${capability} — ${kind}`, () => {
        // Executed cases change the demo data; each group starts from the seeded state.
        beforeAll(async () => w.legacy.reset());
        it(`has at least 10 ${kind} cases`, () => {
          if (table[kind].length < 10)
            throw new Error(`${capability}: only ${table[kind].length} ${kind} cases`);
        });
        for (const [name, run, expected] of table[kind]) it(name, async () => check(await run(w), expected));
      });
    }
  }
});
