import type { ShopAdapter, ShopOrder } from "./shop-adapter";

/**
 * The label of the payment method that paid an order ("Visa •••• 4242", "Store credit"), from
 * the shop's own records: the order's payment names only its type, the payments list names the
 * method's id, and the customer's payment methods give its label. Issue 23: asked "which card did
 * I pay with?", a model went through the start page to the profile to match a bare "card".
 * Null when the order is unpaid or the shop cannot say: the type still shows then.
 */
export async function paidWith(adapter: ShopAdapter, order: ShopOrder): Promise<string | null> {
  if (!order.payment) return null;
  try {
    return await adapter.paymentMethodLabel({
      id: order.payment.id,
      order_id: order.id,
      customer_id: order.customer_id,
    });
  } catch {
    // The label adds to a view that stands without it: a failed read of it never hides the order.
    return null;
  }
}
