import { z } from "zod";
import type { NodeDefinition, NodeResult } from "../../engine/define-capability";
import type { ValidationError } from "../../engine/outcome";
import type { ShopAdapter, ShopOrder } from "./shop-adapter";
import { canSeeOrder, customerFor } from "./shop-customer";

export const orderIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "an order id such as ord_123")
  .describe("The order's id, e.g. ord_paid (from the order view or the user's order list)");

/** The first node of every order-bound capability: load the order the actor may see, then check it. */
export function orderNode(
  description: string,
  check?: (order: ShopOrder) => ValidationError[] | Promise<ValidationError[]>,
): NodeDefinition<ShopAdapter> {
  return {
    id: "ORDER",
    description,
    fields: { order_id: orderIdSchema },
    async resolve({ adapter, actor, values, derived }): Promise<NodeResult> {
      const id = values.order_id as string | undefined;
      if (!id) return {};
      const customer = await customerFor(adapter, actor, derived);
      const order = await adapter.order(id);
      if (!order || !canSeeOrder(actor, customer, order)) return { notFound: { entity: "Order", id } };
      return {
        derived: { order },
        options: { order: orderBrief(order) },
        errors: check ? await check(order) : [],
      };
    },
  };
}

export function orderBrief(order: ShopOrder) {
  return {
    id: order.id,
    status: order.status,
    total: order.total,
    items: order.items.map((i) => ({
      id: i.id,
      product_id: i.product_id,
      name: i.name,
      quantity: i.quantity,
      unit_price: i.unit_price,
      exchangeable: i.exchangeable,
    })),
    address: order.address ? { id: order.address.id, label: order.address.label } : null,
    shipment: order.shipment ? { status: order.shipment.status, carrier: order.shipment.carrier } : null,
  };
}
