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
  const paid = order.payment.id;
  try {
    const [payments, methods] = await Promise.all([
      adapter.paymentsByOrder(order.id),
      adapter.paymentMethods(order.customer_id),
    ]);
    const methodId = payments.find((p) => p.id === paid)?.payment_method_id;
    return methods.find((m) => m.id === methodId)?.label ?? null;
  } catch {
    // The label adds to a view that stands without it: a failed read of it never hides the order.
    return null;
  }
}
