import { defineCapability } from "../../sdk/define-capability";
import { expectedDelivery } from "../expected-delivery";
import { orderNode } from "../order-node";
import type { ShopAdapter, ShopOrder } from "../shop-adapter";
import { SHOP_MONEY, SHOP_POLICY } from "../shop-policy";

export const trackShipment = defineCapability<ShopAdapter>({
  id: "track_shipment",
  connector: "shop",
  title: "Track shipment",
  description: "Where an order's parcel is: carrier, tracking number, status and tracking events. Read-only.",
  trigger: {
    use: "The user asks where their order or parcel is, when it arrives, or for the tracking number.",
    avoid: "Not for changing the address or asking for money back.",
  },
  synonyms: [
    "track",
    "tracking",
    "where is my order",
    "parcel",
    "package",
    "delivery status",
    "shipping status",
    "物流",
    "快递",
    "到哪了",
    "查物流",
    "运单",
    "发货了吗",
  ],
  appliesTo: { entity: "Order", field: "order_id" },
  prerequisites: ["an order that has shipped"],
  sideEffects: [],
  money: SHOP_MONEY,
  policy: {
    effect: "read",
    permission: "shop.order.read",
    approval: "never",
    audit: "summary",
    ...SHOP_POLICY,
  },
  nodes: [
    // "yes" for a parcel on its way (what "where is my parcel?" asks about); a delivered one can
    // still be tracked when named, and says so.
    orderNode("The order to track", undefined, (order) =>
      !order.shipment
        ? "not shipped yet"
        : order.shipment.status === "delivered"
          ? `delivered (${order.shipment.carrier}); track it by naming it`
          : "yes",
    ),
  ],
  async read({ adapter, derived }) {
    const order = derived.order as ShopOrder;
    // The date the order page says, said here too: "when does it arrive?" asked of the tracking.
    const [res, expected] = await Promise.all([adapter.tracking(order.id), expectedDelivery(adapter, order)]);
    if (res.kind === "ok")
      return {
        result: {
          order_id: order.id,
          order_status: order.status,
          ...(res.body as Record<string, unknown>),
          ...(expected ? { expected_delivery: expected } : {}),
        },
      };
    if (res.kind === "error" && res.code === "not_shipped")
      return {
        error: {
          field: "order_id",
          code: "not_shipped",
          message:
            order.status === "cancelled"
              ? "The order was cancelled; there is nothing to track"
              : "The order has not shipped yet; there is no tracking yet",
        },
      };
    return {
      error: {
        field: "order_id",
        code: res.kind === "error" ? res.code : "tracking_unavailable",
        message: "Tracking is not available for this order",
      },
    };
  },
});
