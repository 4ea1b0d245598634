import { money } from "../sdk/markdown";
import type { ValidationError } from "../sdk/outcome";
import type { ShopOrder } from "./shop-adapter";

/**
 * Why an order cannot be paid now, as refusals (nothing the agent sends changes an order's
 * status); empty when it awaits payment. pay_order and the order view both ask this.
 */
export function paymentRefusals(order: ShopOrder): ValidationError[] {
  if (order.status === "pending_payment") return [];
  const message =
    order.status === "cancelled"
      ? `Order ${order.id} is cancelled; there is nothing to pay`
      : `Order ${order.id} is already paid${order.status === "paid" ? "" : ` (${order.status})`}; there is nothing to pay${owedBack(order)}`;
  return [
    {
      field: "order_id",
      code: order.status === "cancelled" ? "order_cancelled" : "order_already_paid",
      message,
      refused: true,
      // A shipped order's way forward is its parcel; the overpaid shipping, its refund.
      alternatives: [
        ...(order.status === "shipped"
          ? [{ capability: "track_shipment", entity_id: order.id, description: "Track the parcel" }]
          : []),
        ...(owedBack(order) && order.status !== "cancelled"
          ? [
              {
                capability: "after_sales",
                entity_id: order.id,
                description: "Refund the overpaid shipping (the user approves)",
              },
            ]
          : []),
      ],
    },
  ];
}

/**
 * Money the shop owes back on a paid order, said with the no: set CP's "pay what's still owed on
 * the backpack order" was refused as paid, and the model read the order again to learn that the
 * shop owed the customer the other way.
 */
function owedBack(order: ShopOrder): string {
  return order.shipping_difference > 0
    ? `; the shop owes the customer ${money(order.shipping_difference)} of overpaid shipping (a shipping refund)`
    : "";
}
