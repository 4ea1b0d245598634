import { z } from "zod";
import type { NodeDefinition } from "../sdk/define-capability";
import { money } from "../sdk/markdown";
import type { ShopAdapter, ShopCustomerRef } from "./shop-adapter";

/**
 * The PAYMENT node checkout and pay_order share: the customer's payment methods (balance or
 * card, with the legacy system's labels), and a balance too small for the total is refused here,
 * before anyone is asked to approve. Needs `derived.customer` (the customer who pays) upstream;
 * `totalOf` says what is due. Derives `total` and, once chosen, `payment_method`.
 */
export function paymentNode(
  description: string,
  totalOf: (derived: Record<string, unknown>) => number,
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
    // them too. Played: "from my store credit" was read as an ask nothing does, and a patch of
    // "account balance" or "credit card" was refused as no method.
    valueWords: {
      payment_type: {
        balance: ["balance", "store credit", "account balance", "shop credit", "credit balance", "wallet"],
        card: ["card", "credit card", "debit card", "bank card"],
      },
    },
    async resolve({ adapter, values, derived }) {
      const customer = derived.customer as ShopCustomerRef;
      const methods = await adapter.paymentMethods(customer.id);
      const total = totalOf(derived);
      const options = {
        payment_methods: methods.map((m) => ({ type: m.type, label: m.label, available: m.available })),
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
