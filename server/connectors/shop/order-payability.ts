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
      : `Order ${order.id} is already paid${order.status === "paid" ? "" : ` (${order.status})`}; there is nothing to pay`;
  return [
    {
      field: "order_id",
      code: order.status === "cancelled" ? "order_cancelled" : "order_already_paid",
      message,
      refused: true,
      // A shipped order's way forward is its parcel.
      alternatives:
        order.status === "shipped"
          ? [{ capability: "track_shipment", entity_id: order.id, description: "Track the parcel" }]
          : [],
    },
  ];
}
