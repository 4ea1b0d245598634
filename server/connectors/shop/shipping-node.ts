import { z } from "zod";
import type { NodeDefinition } from "../sdk/define-capability";
import type { eligibleCoupons } from "./eligible-coupons";
import type { ShopAdapter, ShopAddress, ShopQuote } from "./shop-adapter";

type Coupon = ReturnType<typeof eligibleCoupons>[number];

/**
 * Checkout's SHIPPING node: the shop's quotes for the items to the address, cheapest first, each
 * with what the order costs in all with it (`total`: the items, that shipping, less the coupon
 * given when it applies). Played (issue 23): "what's the cheapest way to ship my cart to my
 * office, and what would it cost in total?" listed each method's price alone, and the model
 * advanced once more only to read the sum. Needs `derived.lines`, `subtotal`, `address` and
 * `customer` upstream, and `coupons` (the ones that apply to the subtotal) when any do.
 */
export function shippingNode(): NodeDefinition<ShopAdapter> {
  return {
    id: "SHIPPING",
    description: "Shipping method; prices depend on the items and the address",
    dependsOn: ["items", "address_id"],
    fields: {
      shipping_method: z
        .enum(["standard", "express", "same_day"])
        .optional()
        .describe("One of options.shipping_methods, as the user chose it (priced once the address is set)"),
    },
    // What the user pays depends on it: never the cheapest by default, the user says which.
    paidChoices: ["shipping_method"],
    async resolve({ adapter, values, derived }) {
      const customer = derived.customer as { id: string };
      const address = derived.address as ShopAddress;
      const lines = derived.lines as Array<{ product_id: string; quantity: number }>;
      const res = await adapter.quotes({
        customer_id: customer.id,
        address_id: address.id,
        items: lines.map((l) => ({ product_id: l.product_id, quantity: l.quantity })),
      });
      if (!res.ok) return { errors: [{ field: "shipping_method", code: res.code, message: res.message }] };
      // The coupon node comes later and checks the code; here it only takes its discount off.
      const code = typeof values.coupon_code === "string" ? values.coupon_code.trim().toLowerCase() : "";
      const coupon = ((derived.coupons ?? []) as Coupon[]).find((c) => c.code.toLowerCase() === code);
      const inAll = (derived.subtotal as number) - (coupon?.discount ?? 0);
      const quotes: Array<ShopQuote & { total: number }> = [...res.quotes]
        .sort((a, b) => a.price - b.price)
        .map((q) => ({ ...q, total: inAll + q.price }));
      const options = { shipping_methods: quotes };
      const wanted = (values.shipping_method as string | undefined) ?? quotes[0]?.method;
      const quote = quotes.find((q) => q.method === wanted);
      if (!quote)
        return {
          options,
          errors: [
            {
              field: "shipping_method",
              code: "shipping_method_unavailable",
              message: `${wanted} is not available for this address; choose one of ${quotes.map((q) => q.method).join(", ")}`,
            },
          ],
        };
      const { total: _inAll, ...shipping } = quote;
      return { options, defaults: { shipping_method: quote.method }, derived: { shipping } };
    },
  };
}
