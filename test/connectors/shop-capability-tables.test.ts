// stays-whole: a table-driven test: each row one business rule of the shop's capabilities.
import { afterAll, beforeAll, describe, it } from "vitest";
import { createWorld, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";
import {
  BUCKETS,
  bucketSizes,
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

/** A refused start ends its action (nothing held, nothing to cancel): another record the user names. */
const REFUSED_NEXT = ["start_action"];

/**
 * The floor every bucket of every table keeps: what its distinct rules need today (the smallest
 * bucket, change_delivery_address's incomplete one, holds 8 since a start on an order that cannot
 * take the change ends as refused), so a row dropped without thought is seen. It is no target: a
 * row that only repeats another's rule with other ids or an irrelevant value does not belong here,
 * and the floor goes down when such rows leave.
 */
const MIN_CASES = 8;

/**
 * Table-driven contract tests of the shop's write capabilities through the gateway, against the
 * real legacy service: valid, incomplete and refused requests for each, one row per business
 * rule, with the outcome each must get.
 */

const mug2 = { items: [{ product_id: "prod_mug", quantity: 2 }] };
const full = { ...mug2, address_id: "Office", shipping_method: "standard", payment_type: "balance" };

const checkout: Record<"valid" | "incomplete" | "refused", Row[]> = {
  valid: [
    [
      "two mugs, office, balance (the article's sentence)",
      start("alice", "checkout", undefined, full),
      {
        ...ready,
        node: "CONFIRM_ORDER",
        status: "awaiting_approval",
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "balance" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
    ],
    [
      "lamp with SAVE30",
      start("alice", "checkout", undefined, {
        items: [{ product_id: "prod_lamp", quantity: 1 }],
        address_id: "Office",
        shipping_method: "standard",
        coupon_code: "SAVE30",
        payment_type: "card",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 29800,
          sum: {
            terms: [{ label: "items" }, { label: "shipping" }, { label: "coupon SAVE30", amount: -3000 }],
          },
          shipping_method: { value: "standard" },
          payment_method: { type: "card" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
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
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 18300,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "express" },
          payment_method: { type: "balance" },
          address: "Home: 42 Elm Road, 23456 Shelbyville, US",
        },
      },
    ],
    [
      "address by id",
      start("alice", "checkout", undefined, {
        ...mug2,
        address_id: "addr_alice_home",
        shipping_method: "standard",
        payment_type: "card",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "card" },
          address: "Home: 42 Elm Road, 23456 Shelbyville, US",
        },
      },
    ],
    [
      "address label in lower case",
      start("alice", "checkout", undefined, {
        ...mug2,
        address_id: "office",
        shipping_method: "standard",
        payment_type: "card",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "card" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
    ],
    [
      "same-day to the office in the warehouse city",
      start("alice", "checkout", undefined, {
        ...mug2,
        address_id: "Office",
        shipping_method: "same_day",
        payment_type: "card",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 5100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "same_day" },
          payment_method: { type: "card" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
    ],
    [
      "an admin buying for himself",
      start("adam", "checkout", undefined, {
        ...mug2,
        address_id: "Home",
        shipping_method: "standard",
        payment_type: "card",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "card" },
          address: "Home: 7 Oak Avenue, 12346 Springfield, US",
        },
      },
    ],
    [
      "dry run previews the confirmation",
      start("alice", "checkout", undefined, full, { dry_run: true }),
      {
        outcome: "preview",
        node: "CONFIRM_ORDER",
        next: ["start_action"],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "balance" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
    ],
    [
      "the whole flow charges once and verifies",
      execute("alice", "checkout", undefined, full),
      {
        ...verified,
        next: [],
        summary: {
          amount: 4100,
          // No coupon: the sum has no discount term.
          sum: { terms: [{ label: "items" }, { label: "shipping" }] },
          shipping_method: { value: "standard" },
          payment_method: { type: "balance" },
          address: "Office: 1 Market Street, 12345 Springfield, US",
        },
      },
    ],
  ],
  incomplete: [
    [
      "nothing said yet",
      start("alice", "checkout"),
      { outcome: "input_required", node: "ITEMS", missing: ["items"], next: ["advance_action"] },
    ],
    [
      // Its price is the user's to choose: never the cheapest by default.
      "no shipping method",
      start("alice", "checkout", undefined, { ...mug2, address_id: "Office", payment_type: "balance" }),
      { outcome: "input_required", node: "SHIPPING", missing: ["shipping_method"], next: ["advance_action"] },
    ],
    [
      "items only",
      start("alice", "checkout", undefined, mug2),
      { outcome: "input_required", node: "ADDRESS", missing: ["address_id"], next: ["advance_action"] },
    ],
    [
      "no payment method",
      start("alice", "checkout", undefined, { ...mug2, address_id: "Office", shipping_method: "standard" }),
      { outcome: "input_required", node: "PAYMENT", missing: ["payment_type"], next: ["advance_action"] },
    ],
    [
      "unknown product",
      start("alice", "checkout", undefined, {
        ...full,
        items: [{ product_id: "prod_unicorn", quantity: 1 }],
      }),
      { outcome: "input_required", node: "ITEMS", code: "unknown_product", next: ["advance_action"] },
    ],
    [
      "sold out",
      start("alice", "checkout", undefined, { ...full, items: [{ product_id: "prod_tee_xl", quantity: 1 }] }),
      // A sold-out line the start was given ends it (nothing held), naming the variants in stock.
      {
        outcome: "rejected",
        code: "insufficient_stock",
        says: /sold out; in stock: /,
        status: "refused",
        next: ["start_action"],
      },
    ],
    [
      "an address the user does not have",
      start("alice", "checkout", undefined, { ...full, address_id: "Moon base" }),
      { outcome: "input_required", node: "ADDRESS", code: "unknown_address", next: ["advance_action"] },
    ],
    [
      "a coupon below its minimum",
      start("alice", "checkout", undefined, { ...full, coupon_code: "SAVE30" }),
      { outcome: "input_required", node: "COUPON", code: "coupon_not_eligible", next: ["advance_action"] },
    ],
    [
      "an unknown coupon",
      start("alice", "checkout", undefined, { ...full, coupon_code: "FREE100" }),
      { outcome: "input_required", code: "unknown_coupon", next: ["advance_action"] },
    ],
    [
      "quantity zero",
      start("alice", "checkout", undefined, { ...full, items: [{ product_id: "prod_mug", quantity: 0 }] }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
    [
      "same-day outside the warehouse city",
      start("alice", "checkout", undefined, { ...full, address_id: "Home", shipping_method: "same_day" }),
      {
        outcome: "input_required",
        node: "SHIPPING",
        code: "shipping_method_unavailable",
        next: ["advance_action"],
      },
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
      { outcome: "input_required", code: "duplicate_item", next: ["advance_action"] },
    ],
    [
      "an unsupported payment type",
      start("alice", "checkout", undefined, { ...full, payment_type: "crypto" }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "tenant in the arguments",
      startRaw("alice", { capability: "checkout", tenant_id: "globex" }),
      { outcome: "rejected", reason: "invalid_arguments", says: /tenant_id/, next: [] },
    ],
    [
      "user in the patch",
      start("alice", "checkout", undefined, { ...full, user_id: "someone" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "an unknown capability",
      start("alice", "checkout_everything"),
      // Issue 23: the nearest capability by id and title, then the search.
      { outcome: "not_found", reason: "unknown_capability", next: ["start_action", "search_capabilities"] },
    ],
    [
      "a stale version",
      staleAdvance("alice", "checkout", undefined, full, { shipping_method: "express" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "confirm without approval",
      confirmUnapproved("alice", "checkout", undefined, full),
      { outcome: "rejected", reason: "approval_pending", next: ["get_context", "confirm_action"] },
    ],
    [
      "confirm by another user's agent",
      confirmUnapproved("alice", "checkout", undefined, full, "sam"),
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
    [
      "the agent approving its own charge",
      decideAs("alice", "checkout", undefined, full, { kind: "agent", who: "alice" }),
      { outcome: "rejected", reason: "person_required", next: [] },
    ],
    [
      "support approving a user's charge",
      decideAs("alice", "checkout", undefined, full, { kind: "person", who: "sam" }),
      { outcome: "rejected", reason: "not_your_approval", next: [] },
    ],
    [
      "another tenant's person approving",
      decideAs("alice", "checkout", undefined, full, { kind: "person", who: "gina" }),
      { outcome: "not_found", next: [] },
    ],
    [
      "a deny rule",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:checkout", decision: "deny" },
        start("alice", "checkout", undefined, full),
      ),
      { outcome: "rejected", reason: "permission_denied", next: [] },
    ],
    [
      "an ask rule",
      withRule(
        "alice",
        { verb: "*", pattern: "capability:check*", decision: "ask" },
        start("alice", "checkout", undefined, full),
      ),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      "another tenant advancing the action",
      startThenAdvance("alice", "checkout", undefined, mug2, { address_id: "Office" }, "gina"),
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
  ],
};

const afterSales: typeof checkout = {
  valid: [
    [
      "paid, not shipped: refund-only is chosen",
      start("alice", "after_sales", "ord_paid", { reason: "changed my mind" }),
      {
        ...ready,
        node: "CONFIRM_REQUEST",
        status: "awaiting_approval",
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", kind: { value: "refund_only" }, amount: 31600 },
      },
    ],
    [
      "refund-only, partial amount",
      start("alice", "after_sales", "ord_paid", {
        kind: "refund_only",
        reason: "keep the mug",
        amount: 1000,
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", kind: { value: "refund_only" }, amount: 1000 },
      },
    ],
    [
      "delivered: return and refund of both items, named",
      start("alice", "after_sales", "ord_delivered", {
        reason: "too loud",
        item_ids: ["ord_delivered_item_1", "ord_delivered_item_2"],
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_delivered", kind: { value: "return_refund" }, amount: 18600 },
      },
    ],
    [
      "damage claim with evidence",
      start("alice", "after_sales", "ord_delivered", {
        reason: "arrived damaged",
        item_ids: ["ord_delivered_item_2"],
        evidence: ["https://img.example/1.jpg"],
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_delivered", kind: { value: "return_refund" }, amount: 3600 },
      },
    ],
    [
      "exchange a tee for a smaller size",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too big",
        replacement_product_id: "prod_tee_s",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_exchange", kind: { value: "exchange" }, amount: 0 },
      },
    ],
    [
      "return the mug of an exchangeable order",
      start("alice", "after_sales", "ord_exchange", {
        kind: "return_refund",
        reason: "not needed",
        item_ids: ["ord_exchange_item_2"],
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: {
          order_id: "ord_exchange",
          kind: { value: "return_refund" },
          amount: 1800,
          items: [{ id: "ord_exchange_item_2", name: "Signpost Mug", quantity: 1, amount: 1800 }],
        },
      },
    ],
    [
      "shipping difference refund",
      start("alice", "after_sales", "ord_shipdiff", {
        kind: "shipping_refund",
        reason: "overcharged shipping",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_shipdiff", kind: { value: "shipping_refund" }, amount: 700 },
      },
    ],
    [
      "return on the overcharged order: its one item is the default",
      start("alice", "after_sales", "ord_shipdiff", { kind: "return_refund", reason: "wrong colour" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_shipdiff", kind: { value: "return_refund" }, amount: 8900 },
      },
    ],
    [
      "exchange naming the item",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too small",
        replacement_product_id: "prod_tee_l",
      }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_exchange", kind: { value: "exchange" }, amount: 0 },
      },
    ],
    [
      "support starting it for the customer",
      start("sam", "after_sales", "ord_paid", { reason: "customer asked by phone" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", kind: { value: "refund_only" }, amount: 31600 },
      },
    ],
    [
      "refund-only executes once and verifies",
      execute("alice", "after_sales", "ord_paid", { reason: "changed my mind" }),
      {
        ...verified,
        next: [],
        summary: { order_id: "ord_paid", kind: { value: "refund_only" }, amount: 31600 },
      },
    ],
  ],
  incomplete: [
    [
      "no order named",
      start("alice", "after_sales"),
      { outcome: "input_required", node: "ORDER", missing: ["order_id"], next: ["advance_action"] },
    ],
    [
      "no reason",
      start("alice", "after_sales", "ord_paid"),
      { outcome: "input_required", node: "DETAILS", missing: ["reason"], next: ["advance_action"] },
    ],
    [
      "return or exchange? not said",
      start("alice", "after_sales", "ord_exchange", { reason: "hmm" }),
      { outcome: "input_required", node: "PATH", missing: ["kind"], next: ["advance_action"] },
    ],
    [
      "damage without evidence",
      start("alice", "after_sales", "ord_delivered", {
        reason: "it is broken",
        item_ids: ["ord_delivered_item_1"],
      }),
      { outcome: "input_required", missing: ["evidence"], next: ["advance_action"] },
    ],
    [
      "return of an order with several items: which ones?",
      start("alice", "after_sales", "ord_delivered", { reason: "too loud" }),
      { outcome: "input_required", node: "DETAILS", missing: ["item_ids"], next: ["advance_action"] },
    ],
    [
      "exchange of an order with several lines: which one? (one exchangeable line is no default)",
      start("alice", "after_sales", "ord_exchange", { kind: "exchange", reason: "too big" }),
      { outcome: "input_required", missing: ["item_id", "replacement_product_id"], next: ["advance_action"] },
    ],
    [
      "exchange without a replacement",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too big",
      }),
      { outcome: "input_required", missing: ["replacement_product_id"], next: ["advance_action"] },
    ],
    [
      "replacement at another price",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too big",
        replacement_product_id: "prod_hoodie",
      }),
      { outcome: "input_required", code: "not_a_replacement", next: ["advance_action"] },
    ],
    [
      "refund more than was paid",
      start("alice", "after_sales", "ord_paid", { reason: "x x x", amount: 99_999_999 }),
      { outcome: "input_required", code: "amount_too_high", next: ["advance_action"] },
    ],
    [
      "return an item not in the order",
      start("alice", "after_sales", "ord_delivered", { reason: "too loud", item_ids: ["itm_nope"] }),
      { outcome: "input_required", code: "unknown_item", next: ["advance_action"] },
    ],
    [
      "refund-only after delivery is refused",
      // The kind the start was given cannot be taken: the start ends (nothing held, nothing to
      // cancel) and says which kind can (set AR: it stayed open, and the model cancelled it).
      start("alice", "after_sales", "ord_delivered", { kind: "refund_only", reason: "x x x" }),
      {
        outcome: "rejected",
        code: "order_already_shipped",
        says: /return and refund/,
        status: "refused",
        next: ["start_action"],
      },
    ],
    [
      "exchange before delivery",
      start("alice", "after_sales", "ord_paid", { kind: "exchange", reason: "x x x" }),
      { outcome: "rejected", code: "order_not_delivered", status: "refused", next: ["start_action"] },
    ],
  ],
  refused: [
    [
      "another tenant's user",
      start("gina", "after_sales", "ord_paid"),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "an order that does not exist",
      start("alice", "after_sales", "ord_nope"),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "role in the arguments",
      startRaw("alice", { capability: "after_sales", entity_id: "ord_paid", role: "admin" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "an unknown patch field",
      start("alice", "after_sales", "ord_paid", { payout_account: "my other card" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "switching the order mid-action",
      startThenAdvance("alice", "after_sales", "ord_paid", {}, { order_id: "ord_delivered" }),
      { outcome: "rejected", reason: "field_not_allowed", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "a stale version",
      staleAdvance("alice", "after_sales", "ord_paid", {}, { reason: "x x x" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "confirm without approval",
      confirmUnapproved("alice", "after_sales", "ord_paid", { reason: "x x x" }),
      { outcome: "rejected", reason: "approval_pending", next: ["get_context", "confirm_action"] },
    ],
    [
      "the agent approving",
      decideAs("alice", "after_sales", "ord_paid", { reason: "x x x" }, { kind: "agent", who: "alice" }),
      { outcome: "rejected", reason: "person_required", next: [] },
    ],
    [
      "an admin may not approve Alice's refund",
      decideAs("alice", "after_sales", "ord_paid", { reason: "x x x" }, { kind: "person", who: "adam" }),
      {
        outcome: "rejected",
        reason: "not_your_approval",
        says: /^Only Alice can decide this action/,
        next: [],
      },
    ],
    [
      "another tenant reading the action",
      async (w) => {
        const s = await start("alice", "after_sales", "ord_paid")(w);
        return w.gw.getContext(w.agent.gina, { action_id: s.action_id });
      },
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
    [
      "an ask rule on refunds",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:after_sales", decision: "ask" },
        start("alice", "after_sales", "ord_paid"),
      ),
      { outcome: "rejected", reason: "permission_required", next: [] },
    ],
    [
      // The user's choice cannot be taken: refused with the ones that can, nothing held open.
      "replacement sold out",
      start("alice", "after_sales", "ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too big",
        replacement_product_id: "prod_tee_xl",
      }),
      {
        outcome: "rejected",
        code: "out_of_stock",
        says: /out of stock; can be taken instead: prod_tee_l/,
        status: "refused",
        next: ["start_action"],
      },
    ],
    [
      "in transit: nothing applies yet",
      start("alice", "after_sales", "ord_transit"),
      {
        outcome: "rejected",
        code: "no_after_sales_available",
        says: /in transit/,
        status: "refused",
        next: ["start_action", "start_action"],
        offers: ["track_shipment"],
      },
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
        status: "refused",
        next: ["start_action", "start_action"],
        offers: ["track_shipment"],
      },
    ],
    [
      "return window closed",
      start("alice", "after_sales", "ord_delivered_old", { kind: "return_refund", reason: "x x x" }),
      { outcome: "rejected", code: "return_window_closed", next: REFUSED_NEXT },
    ],
    [
      "unpaid order",
      start("alice", "after_sales", "ord_pending"),
      // Nothing to refund: the refusal points at the capability that cancels it, no money moved.
      {
        outcome: "rejected",
        code: "no_after_sales_available",
        says: /cancel_unpaid_order cancels it/,
        next: ["start_action", "start_action"],
        offers: ["cancel_unpaid_order"],
      },
    ],
    [
      "cancelled order",
      start("alice", "after_sales", "ord_cancelled"),
      { outcome: "rejected", code: "no_after_sales_available", next: REFUSED_NEXT },
    ],
  ],
};

const changeAddress: typeof checkout = {
  valid: [
    [
      "paid order to Home",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      {
        ...ready,
        node: "CONFIRM_CHANGE",
        status: "open",
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "label in lower case",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "home" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "address by id",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "addr_alice_home" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "unpaid order to Home",
      start("alice", "change_delivery_address", "ord_pending", { address_id: "Home" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_pending", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "dry run",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }, { dry_run: true }),
      {
        outcome: "preview",
        node: "CONFIRM_CHANGE",
        next: ["start_action"],
        summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "two steps",
      startThenAdvance("alice", "change_delivery_address", "ord_paid", {}, { address_id: "Home" }),
      {
        ...ready,
        next: ["advance_action", "confirm_action"],
        summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" },
      },
    ],
    [
      "the order view offers it",
      (w) => w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" }),
      { outcome: "applied", next: ["start_action", "start_action"], offers: ["change_delivery_address"] },
    ],
    [
      "no approval needed: executes and verifies",
      execute("alice", "change_delivery_address", "ord_pending", { address_id: "Home" }),
      { ...verified, next: [], summary: { order_id: "ord_pending", to: "Home: 42 Elm Road, Shelbyville" } },
    ],
    [
      // Last: it changes ord_paid. The order Sam sends is none of his own, so no other record of
      // his would take the change (unnamed-record.ts): like a start with his key, it runs at once.
      "support for the customer",
      start("sam", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      { ...verified, next: [], summary: { order_id: "ord_paid", to: "Home: 42 Elm Road, Shelbyville" } },
    ],
  ],
  incomplete: [
    [
      "no order",
      start("alice", "change_delivery_address"),
      { outcome: "input_required", missing: ["order_id"], next: ["advance_action"] },
    ],
    [
      "no address",
      start("alice", "change_delivery_address", "ord_paid"),
      { outcome: "input_required", node: "ADDRESS", missing: ["address_id"], next: ["advance_action"] },
    ],
    [
      // At advance the value answers the action's own question (perhaps the agent's pick): open.
      "the address it already has, given at advance",
      startThenAdvance("alice", "change_delivery_address", "ord_paid", {}, { address_id: "Office" }),
      { outcome: "input_required", code: "same_address", status: "open", next: ["advance_action"] },
    ],
    [
      "a shipped order picked at advance",
      startThenAdvance("alice", "change_delivery_address", undefined, {}, { order_id: "ord_transit" }),
      { outcome: "input_required", code: "order_already_shipped", status: "open", next: ["advance_action"] },
    ],
    [
      "an unknown address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "the beach" }),
      { outcome: "input_required", code: "unknown_address", next: ["advance_action"] },
    ],
    [
      "someone else's address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "addr_adam_home" }),
      { outcome: "input_required", code: "unknown_address", next: ["advance_action"] },
    ],
    [
      "an empty address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "" }),
      { outcome: "input_required", missing: ["address_id"], next: ["advance_action"] },
    ],
    [
      "a number for an address",
      start("alice", "change_delivery_address", "ord_paid", { address_id: 5 }),
      { outcome: "input_required", code: "invalid_value", next: ["advance_action"] },
    ],
  ],
  refused: [
    [
      "cancelled order",
      start("alice", "change_delivery_address", "ord_cancelled", { address_id: "Office" }),
      { outcome: "rejected", status: "refused", code: "order_cancelled", next: REFUSED_NEXT },
    ],
    [
      "refused after delivery",
      start("alice", "change_delivery_address", "ord_delivered", { address_id: "Home" }),
      { outcome: "rejected", status: "refused", code: "order_already_shipped", next: REFUSED_NEXT },
    ],
    [
      "refused after shipment (in transit)",
      start("alice", "change_delivery_address", "ord_transit", { address_id: "Office" }),
      {
        outcome: "rejected",
        status: "refused",
        code: "order_already_shipped",
        says: /already shipped/,
        next: REFUSED_NEXT,
      },
    ],
    [
      "the address it already has",
      start("alice", "change_delivery_address", "ord_paid", { address_id: "Office" }),
      {
        outcome: "rejected",
        status: "refused",
        code: "same_address",
        says: /nothing to change/,
        next: REFUSED_NEXT,
      },
    ],
    [
      "another tenant",
      start("gina", "change_delivery_address", "ord_paid", { address_id: "Office" }),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "user in the arguments",
      startRaw("alice", { capability: "change_delivery_address", entity_id: "ord_paid", user_id: "u1" }),
      { outcome: "rejected", reason: "invalid_arguments", next: [] },
    ],
    [
      "a stale version",
      staleAdvance("alice", "change_delivery_address", "ord_paid", {}, { address_id: "Home" }),
      { outcome: "conflict", reason: "stale_version", next: ["get_context", "advance_action"] },
    ],
    [
      "switching orders",
      startThenAdvance("alice", "change_delivery_address", "ord_paid", {}, { order_id: "ord_pending" }),
      { outcome: "rejected", code: "field_locked", next: ["advance_action"] },
    ],
    [
      "an unknown field",
      start("alice", "change_delivery_address", "ord_paid", { address: "1 Main St" }),
      { outcome: "rejected", reason: "field_not_allowed", next: ["start_action"] },
    ],
    [
      "a deny rule",
      withRule(
        "alice",
        { verb: "start", pattern: "capability:change_*", decision: "deny" },
        start("alice", "change_delivery_address", "ord_paid"),
      ),
      { outcome: "rejected", reason: "permission_denied", next: [] },
    ],
    [
      "another user's agent confirming",
      confirmUnapproved("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }, "sam"),
      { outcome: "not_found", next: ["search_capabilities"] },
    ],
    [
      "confirm before the address is known",
      confirmUnapproved("alice", "change_delivery_address", "ord_paid", {}),
      { outcome: "rejected", reason: "not_in_next_actions", next: ["advance_action"] },
    ],
    [
      "an unknown order",
      start("alice", "change_delivery_address", "ord_nope"),
      { outcome: "not_found", next: ["start_action"] },
    ],
    [
      "another tenant's order view",
      (w) => w.gw.getContext(w.agent.gina, { entity: "order", entity_id: "ord_paid" }),
      { outcome: "not_found", next: [] },
    ],
    [
      "a confirm deny rule",
      withRule(
        "alice",
        { verb: "confirm", pattern: "**", decision: "deny" },
        confirmUnapproved("alice", "change_delivery_address", "ord_paid", { address_id: "Home" }),
      ),
      { outcome: "rejected", reason: "permission_denied", next: [] },
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
    for (const kind of BUCKETS) {
      describe(`${capability} — ${kind}`, () => {
        // Executed cases change the demo data; each group starts from the seeded state.
        beforeAll(async () => w.legacy.reset());
        for (const [name, run, expected] of table[kind]) it(name, async () => check(await run(w), expected));
      });
    }
  }
});

bucketSizes(suites, MIN_CASES);
