import { defineRoute } from "../http/define-route";
import { requireAddress, requireCustomer } from "./customer-routes";
import { priceItems } from "./price-items";
import { quoteShipping } from "./quote-shipping";
import { shippingQuoteInputSchema, shippingQuotesSchema } from "./shop-schemas";

export const shippingRoutes = [
  defineRoute({
    method: "POST",
    path: "/v1/shipping/quotes",
    operationId: "quoteShipping",
    summary: "Shipping options and prices for items to an address",
    description:
      "Prices grow with parcel weight (every started kg after the first); international addresses cost three times as much; same_day only inside the warehouse city (Springfield). Read-only.",
    tag: "shop",
    body: shippingQuoteInputSchema,
    response: shippingQuotesSchema,
    handler: ({ db, tenantId, body }) => {
      requireCustomer(db, tenantId, body.customer_id);
      const address = requireAddress(db, tenantId, body.customer_id, body.address_id);
      const priced = priceItems(db, tenantId, body.items);
      return {
        customer_id: body.customer_id,
        address_id: address.id,
        weight_grams: priced.weightGrams,
        quotes: quoteShipping(priced.weightGrams, address),
      };
    },
  }),
];
