import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { money } from "../../sdk/markdown";
import { chargeOrder, paymentByReference } from "../charge-order";
import { shopAddressLine } from "../match-address";
import { orderNode } from "../order-node";
import { paymentRefusals } from "../order-payability";
import { paymentNode } from "../payment-node";
import type { ShopAdapter, ShopOrder, ShopPaymentMethod } from "../shop-adapter";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";

/**
 * Pays an order that already exists and awaits payment. Checkout would place a second order
 * with the same items and charge that one, leaving this one unpaid: this pays the order itself.
 */
export const payOrder = defineCapability<ShopAdapter>({
  id: "pay_order",
  connector: "shop",
  title: "Complete a pending payment",
  description:
    "Pays the full amount an existing purchase still owes (pending payment) once the user approves; nothing else on the order changes.",
  trigger: {
    use: "The user wants to pay what is still due on something already bought (pending payment, awaiting payment, unpaid), or to settle or complete a payment.",
    avoid:
      "Not for buying new items or placing a new order (that is checkout); not for an order that is already paid, shipped or cancelled; not for refunds.",
  },
  synonyms: [
    "pay pending",
    "unpaid",
    "pending payment",
    "awaiting payment",
    "settle",
    "complete payment",
    "outstanding",
    "pay existing",
    "payment due",
    // "My order is waiting for payment. Use my balance": the order exists, the balance pays it.
    "pay with balance",
    "owe",
    "待付款",
    "待支付",
    "未付款",
    "未支付",
    "补付款",
    "还没付款",
    "去付款",
  ],
  appliesTo: { entity: "Order", field: "order_id" },
  prerequisites: ["an order of the user that awaits payment (pending_payment)"],
  sideEffects: ["charges the payment method", "the order becomes paid"],
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.order.pay",
    approval: "always",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    // Only the user's own orders: the money is theirs, whatever their role.
    orderNode(
      "The order to pay; only an order awaiting payment can be paid",
      paymentRefusals,
      undefined,
      "own",
    ),
    paymentNode("How to pay: account balance or card", (derived) => (derived.order as ShopOrder).total),
    { id: "CONFIRM_PAYMENT", description: "Pay the existing order", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const order = derived.order as ShopOrder;
    const method = derived.payment_method as ShopPaymentMethod;
    const total = derived.total as number;
    const balance =
      method.type === "balance" && typeof method.available === "number" ? method.available : null;
    const title = `Pay ${money(total)} for order ${order.id}`;
    return withShown(
      {
        // Says which order: the tester approved checkout's "Pay $156.50" believing it paid this one.
        title,
        decision: {
          verb: "Pay",
          amount: total,
          currency: "USD",
          from: method.label,
          to: `existing order ${order.id}`,
        },
        amount_label: "Total to be charged",
        order_id: order.id,
        new_order: "none: this pays the existing order",
        items: order.items.map((i) => ({
          product_id: i.product_id,
          name: i.name,
          quantity: i.quantity,
          unit_price: i.unit_price,
          line_total: i.unit_price * i.quantity,
        })),
        subtotal: order.subtotal,
        shipping_price: order.shipping_price,
        discount: order.discount,
        amount: total,
        currency: "USD",
        address: order.address ? shopAddressLine(order.address) : null,
        payment_method: { type: method.type, label: method.label },
        // Context, not approved (see checkout): the PAYMENT node re-checks the balance at confirm.
        ...(balance === null ? {} : { now: { balance_before: balance, balance_after: balance - total } }),
      },
      shopSummary(title, "Total to be charged"),
    );
  },
  effect: {
    kind: "shop.payment",
    description: "Pay the existing order",
    async execute({ adapter, derived, actionKey, timeoutMs, attempts }) {
      const order = derived.order as ShopOrder;
      return chargeOrder(
        adapter,
        {
          orderId: order.id,
          paymentMethodId: (derived.payment_method as ShopPaymentMethod).id,
          // The approved amount: if the order was re-priced since, the shop refuses (amount_mismatch).
          amount: derived.total as number,
          actionKey,
          idempotencyKey: actionKey,
        },
        { attempts, timeoutMs },
      );
    },
    async verify({ adapter, derived, actionKey }) {
      const paid = await paymentByReference(adapter, actionKey);
      if (paid) return paid;
      const order = derived.order as ShopOrder | undefined;
      const now = order ? await adapter.order(order.id) : null;
      return {
        happened: false,
        details: { status: "not_paid", order_id: order?.id ?? null, order_status: now?.status ?? null },
      };
    },
  },
});
