import { z } from "zod";

const id = z.string();
const cents = z.number().int().describe("integer cents, USD");
const timestamp = z.string().describe("ISO 8601 date-time");

export const productSchema = z.strictObject({
  id,
  sku: z.string(),
  name: z.string(),
  description: z.string(),
  price: cents,
  currency: z.literal("USD"),
  stock: z.number().int().describe("units available to order"),
  weight_grams: z.number().int(),
  exchangeable: z.boolean().describe("may be exchanged for another exchangeable product of the same price"),
});

export const inventorySchema = z.strictObject({
  product_id: id,
  available: z.number().int(),
  reserved: z.number().int().describe("units held by orders not shipped yet"),
});

export const customerSchema = z.strictObject({
  id,
  email: z.string(),
  name: z.string(),
  balance: cents.describe("store credit, integer cents"),
});

export const addressSchema = z.strictObject({
  id,
  customer_id: id,
  label: z.string(),
  line1: z.string(),
  city: z.string(),
  postal_code: z.string(),
  country: z.string().describe("ISO 3166-1 alpha-2"),
});

export const addressInputSchema = z.strictObject({
  label: z.string().min(1).max(40),
  line1: z.string().min(1).max(200),
  city: z.string().min(1).max(100),
  postal_code: z.string().min(1).max(20),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .describe("ISO 3166-1 alpha-2, e.g. US"),
});

/** How a payment was made: from the customer's store credit (`balance`) or by card. */
export const paymentTypeSchema = z.enum(["balance", "card"]);

export const paymentMethodSchema = z.strictObject({
  id,
  type: paymentTypeSchema,
  label: z.string(),
  available: cents.nullable().describe("for balance: spendable cents; null for cards"),
});

export const cartSchema = z.strictObject({
  customer_id: id,
  items: z.array(
    z.strictObject({ product_id: id, name: z.string(), quantity: z.number().int(), unit_price: cents }),
  ),
  subtotal: cents,
});

export const cartItemInputSchema = z.strictObject({
  product_id: z.string().min(1),
  quantity: z.number().int().min(1).max(99).describe("the new quantity of this product in the cart"),
});

export const shippingMethodSchema = z.enum(["standard", "express", "same_day"]);

export const itemsInputSchema = z
  .array(z.strictObject({ product_id: z.string().min(1), quantity: z.number().int().min(1).max(99) }))
  .min(1)
  .max(50);

export const shippingQuoteInputSchema = z.strictObject({
  customer_id: z.string().min(1),
  address_id: z.string().min(1),
  items: itemsInputSchema,
});

export const shippingQuotesSchema = z.strictObject({
  customer_id: id,
  address_id: id,
  weight_grams: z.number().int(),
  quotes: z.array(z.strictObject({ method: shippingMethodSchema, price: cents, eta_days: z.number().int() })),
});

export const couponSchema = z.strictObject({
  code: z.string(),
  description: z.string(),
  discount: cents,
  min_subtotal: cents,
  eligible: z.boolean(),
  reason: z.string().nullable().describe("why the coupon does not apply; null when eligible"),
});

export const refundKindSchema = z.enum(["refund", "return", "exchange", "shipping_refund", "cancellation"]);

export const refundSchema = z.strictObject({
  id,
  order_id: id,
  kind: refundKindSchema,
  amount: cents,
  status: z.enum(["succeeded"]),
  reason: z.string(),
  reference: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: timestamp,
});

export const orderStatusSchema = z.enum(["pending_payment", "paid", "shipped", "delivered", "cancelled"]);

export const orderSchema = z.strictObject({
  id,
  customer_id: id,
  status: orderStatusSchema,
  items: z.array(
    z.strictObject({
      id,
      product_id: id,
      name: z.string(),
      quantity: z.number().int(),
      unit_price: cents,
      exchangeable: z
        .boolean()
        .describe("may be exchanged: an exchangeable product on a line not yet returned or exchanged"),
      status: z.enum(["ok", "returned", "exchanged"]),
    }),
  ),
  subtotal: cents,
  shipping_method: shippingMethodSchema,
  shipping_price: cents,
  discount: cents,
  coupon_code: z.string().nullable(),
  total: cents,
  address: z.strictObject({
    id,
    label: z.string(),
    line1: z.string(),
    city: z.string(),
    postal_code: z.string(),
    country: z.string(),
  }),
  payment: z
    .strictObject({ id, status: z.string(), amount: cents, method: z.enum(["balance", "card"]) })
    .nullable(),
  shipment: z
    .strictObject({ id, carrier: z.string(), tracking_number: z.string(), status: z.string() })
    .nullable(),
  shipping_difference: cents.describe("shipping paid but not used (refundable via shipping-refunds)"),
  refunded: cents,
  refundable: cents.describe("total minus everything refunded so far"),
  refunds: z.array(refundSchema),
  reference: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  paid_at: timestamp.nullable().describe("when the payment succeeded; null until paid"),
  shipped_at: timestamp.nullable().describe("when the parcel went to the carrier; null until shipped"),
  delivered_at: timestamp.nullable(),
  returns_until: timestamp
    .nullable()
    .describe("when returns and exchanges close (delivery plus the shop's window); null until delivered"),
});

export const referenceField = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    "the caller's own id for this operation, stored on the created object and searchable with ?reference=",
  );

export const paymentSchema = z.strictObject({
  id,
  order_id: id,
  payment_method_id: id,
  status: z.enum(["succeeded"]),
  amount: cents,
  method: z.enum(["balance", "card"]),
  reference: z.string().nullable(),
  created_at: timestamp,
});

export const trackingSchema = z.strictObject({
  order_id: id,
  carrier: z.string(),
  tracking_number: z.string(),
  status: z.string(),
  events: z.array(z.strictObject({ at: timestamp, location: z.string(), description: z.string() })),
});
