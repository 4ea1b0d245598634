import { withShown } from "../../sdk/decision-summary";
import { defineCapability } from "../../sdk/define-capability";
import { toEffectResult } from "../../sdk/effect-result";
import { sendWithRetries } from "../../sdk/http-client";
import { money } from "../../sdk/markdown";
import type { ValidationError } from "../../sdk/outcome";
import { afterSalesPaths } from "../after-sales-eligibility";
import { orderNode } from "../order-node";
import type { ShopAdapter, ShopOrder } from "../shop-adapter";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";
import { shopSummary } from "../shop-summary-fields";

/**
 * Why an order cannot be cancelled here: only one still waiting for its payment can. A paid one
 * is refused, never cancelled: the legacy cancel refunds a paid order in full, and money moves
 * only with a person's approval, which after_sales asks for (its "Cancel and refund").
 */
function cancelRefusals(order: ShopOrder): ValidationError[] {
  if (order.status === "pending_payment") return [];
  if (order.status === "cancelled")
    return [
      {
        field: "order_id",
        code: "order_cancelled",
        message: "The order is already cancelled",
        already: true,
      },
    ];
  if (order.status === "paid")
    return [
      {
        field: "order_id",
        code: "order_paid",
        message: `${order.id} is paid: cancelling it refunds ${money(order.total)}, which the user approves; use after_sales (Cancel and refund)`,
        refused: true,
        alternatives: [
          {
            capability: "after_sales",
            entity_id: order.id,
            description: "Cancel and refund the paid order (the user approves)",
          },
        ],
      },
    ];
  // A return is offered instead only while one is possible (review 54b: an order past its
  // return window was told a return could be asked).
  const returnOpen = afterSalesPaths(order, new Date()).some((p) => p.kind === "return_refund" && p.eligible);
  return [
    {
      field: "order_id",
      code: "order_already_shipped",
      // What is possible instead, said with the no (set AN: "can no longer be cancelled" sent the
      // model to read the order to tell the user what she could do).
      message:
        order.status !== "delivered"
          ? "The order has already shipped; it can no longer be cancelled: once it is delivered, a return and refund can be asked (the user approves); until then it can be tracked"
          : returnOpen
            ? "The order has already been delivered; it can no longer be cancelled: a return and refund can be asked instead (the user approves)"
            : `The order has already been delivered; it can no longer be cancelled, nor returned: ${afterSalesPaths(order, new Date()).find((p) => p.kind === "return_refund")?.message ?? "no return path"}`,
      refused: true,
      alternatives: [
        order.status === "delivered" && returnOpen
          ? {
              capability: "after_sales",
              entity_id: order.id,
              description: "Return and refund (the user approves)",
            }
          : { capability: "track_shipment", entity_id: order.id, description: "Track the parcel" },
      ],
    },
  ];
}

export const cancelUnpaidOrder = defineCapability<ShopAdapter>({
  id: "cancel_unpaid_order",
  connector: "shop",
  // "Cancel" is said once, in the id: a bare "cancel my order" finds after_sales first, which
  // takes a paid order (the one that moves money); "unpaid", "waiting for payment" find this.
  // No "buyers" nor "go back" in its text (reviews 64b, 64c: "buy the unpaid kettle with my
  // balance" and "Go ahead and send my kettle order home" were read as asking for it).
  title: "Unpaid order cancellation",
  description:
    "Drops an unpaid order (pending) the user wants gone. Its items are restocked. No money moves: none was taken, and it will not ship.",
  trigger: {
    use: "The user wants to drop an unpaid order (pending payment).",
    avoid: "Not for a paid order (after_sales cancels it, once the user approves). Not once shipped.",
  },
  synonyms: ["unpaid order", "pending order"],
  appliesTo: { entity: "Order", field: "order_id" },
  prerequisites: ["an order of the user that is not paid yet"],
  sideEffects: ["cancels the order: it will not ship, its items go back to stock; no money moves"],
  money: SHOP_MONEY,
  policy: {
    effect: "write",
    permission: "shop.order.cancel",
    // Nothing was paid, so nothing is refunded: the engine still runs it at once only on a record
    // the user meant (the only unpaid order, or the one their words name), else it asks.
    approval: "never",
    audit: "full",
    ...SHOP_POLICY,
  },
  nodes: [
    orderNode("The order; only one not paid yet can be cancelled here", cancelRefusals, (order) => {
      const why = cancelRefusals(order)[0];
      return why ? (why.message.split(/[:;]/)[0] as string) : "yes";
    }),
    { id: "CONFIRM_CANCEL", description: "Cancel the unpaid order", requiresConfirmation: true },
  ],
  summarize: ({ derived }) => {
    const order = derived.order as ShopOrder;
    return withShown(
      {
        order_id: order.id,
        items: order.items.map((i) => `${i.name} ×${i.quantity}`).join(", "),
        total: order.total,
        order_after: `Cancelled: ${order.id} will not ship and its items go back to stock; nothing was paid, nothing is refunded`,
        order_updated_at: order.updated_at,
      },
      shopSummary("Cancel the unpaid order"),
    );
  },
  effect: {
    kind: "shop.order_cancel",
    description: "Cancel the unpaid order",
    async execute({ adapter, derived, actionKey, timeoutMs, attempts }) {
      const order = derived.order as ShopOrder;
      // Checked again right before the request: an order paid since it was read would be refunded
      // by the legacy cancel, a money move nobody approved.
      const now = await adapter.order(order.id);
      if (now && now.status !== "pending_payment" && now.status !== "cancelled")
        return {
          status: "rejected",
          code: now.status === "paid" ? "order_paid" : "order_already_shipped",
          message: `${order.id} is ${now.status} now; nothing was cancelled${now.status === "paid" ? ": cancelling it refunds money, which after_sales asks the user to approve" : ""}`,
        };
      const res = await sendWithRetries(
        adapter.http,
        {
          method: "POST",
          path: `/v1/orders/${encodeURIComponent(order.id)}/cancel`,
          idempotencyKey: actionKey,
          body: { reason: "cancelled before payment", reference: actionKey },
        },
        { attempts, timeoutMs },
      );
      return toEffectResult(res, async () => {
        const after = await adapter.order(order.id);
        return after?.status === "cancelled"
          ? { applied: true, externalId: order.id }
          : { applied: false, message: `order ${order.id} is still ${after?.status ?? "open"}` };
      });
    },
    async verify({ adapter, derived }) {
      const order = derived.order as ShopOrder;
      const after = await adapter.order(order.id);
      const details = { status: after?.status ?? "not_found", order_id: order.id };
      return after?.status === "cancelled"
        ? { happened: true, externalId: order.id, details }
        : { happened: false, details };
    },
  },
});
