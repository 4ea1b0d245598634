import { z } from "zod";
import type { NodeDefinition } from "../sdk/define-capability";
import { money } from "../sdk/markdown";
import { PAYMENT_WORDS } from "./payment-words";
import type { ShopAdapter, ShopCustomerRef } from "./shop-adapter";

/**
 * The PAYMENT node checkout and pay_order share: the customer's payment methods (balance or
 * card, with the legacy system's labels), and a balance too small for the total is refused here,
 * before anyone is asked to approve. Needs `derived.customer` (the customer who pays) upstream;
 * `totalOf` says what is due. Derives `total` and, once chosen, `payment_method`.
 *
 * `partsOf`, where what is due adds up from parts (items, shipping, a discount: money keys),
 * shows them with the total as `options.to_pay` while the method is asked: the method changes
 * none of it, and "what would it cost in total?" is then answered before anything is paid
 * (issue 23: the answer asked for payment_type with no total, and the model advanced only to
 * read it).
 */
export function paymentNode(
  description: string,
  totalOf: (derived: Record<string, unknown>) => number,
  partsOf?: (derived: Record<string, unknown>) => Record<string, number>,
): NodeDefinition<ShopAdapter> {
  return {
    id: "PAYMENT",
    description,
    fields: {
      payment_type: z
        .enum(["balance", "card"])
        .describe("'balance' (store credit) or 'card', see options.payment_methods"),
    },
    // What people call each method; the rows' own labels ("Store credit", "Visa •••• 4242") name
    // them too.
    valueWords: { payment_type: PAYMENT_WORDS },
    async resolve({ adapter, values, derived }) {
      const customer = derived.customer as ShopCustomerRef;
      const methods = await adapter.paymentMethods(customer.id);
      const total = totalOf(derived);
      const options = {
        payment_methods: methods.map((m) => ({ type: m.type, label: m.label, available: m.available })),
        ...(partsOf ? { to_pay: { ...partsOf(derived), total } } : {}),
      };
      const type = values.payment_type as string | undefined;
      if (!type) return { options, derived: { total } };
      const method = methods.find((m) => m.type === type);
      if (!method)
        return {
          options,
          derived: { total },
          errors: [
            {
              field: "payment_type",
              code: "payment_method_unavailable",
              message: `No ${type} payment method on this account`,
            },
          ],
        };
      if (method.type === "balance" && typeof method.available === "number" && method.available < total)
        return {
          options,
          derived: { total },
          errors: [
            {
              field: "payment_type",
              code: "insufficient_balance",
              message: `Balance ${money(method.available)} is less than the total ${money(total)}`,
            },
          ],
        };
      return { options, derived: { total, payment_method: method } };
    },
  };
}
