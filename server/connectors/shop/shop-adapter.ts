import { type CachedLookups, uncachedLookups } from "../sdk/cached-lookups";
import { createHttpClient, type HttpClient, type HttpClientOptions } from "../sdk/http-client";

export interface ShopCustomer {
  id: string;
  email: string;
  name: string;
  balance: number;
}
/** Who a Signpost user is in the shop: what a remembered lookup keeps (never the balance). */
export type ShopCustomerRef = Pick<ShopCustomer, "id" | "email" | "name">;
export interface ShopAddress {
  id: string;
  label: string;
  line1: string;
  city: string;
  postal_code: string;
  country: string;
}
export interface ShopPaymentMethod {
  id: string;
  type: "balance" | "card";
  label: string;
  available?: number;
}
export interface ShopProduct {
  id: string;
  sku: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  stock: number;
  exchangeable: boolean;
}
export interface ShopOrderItem {
  id: string;
  product_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  exchangeable: boolean;
  /** The legacy system's own record of what happened to the line since delivery. */
  status?: "ok" | "returned" | "exchanged";
}
export interface ShopOrder {
  id: string;
  customer_id: string;
  status: "pending_payment" | "paid" | "shipped" | "delivered" | "cancelled";
  items: ShopOrderItem[];
  subtotal: number;
  shipping_method: string;
  shipping_price: number;
  discount: number;
  /** The coupon the discount came from, when one was applied. */
  coupon_code?: string | null;
  total: number;
  address: (ShopAddress & { id: string }) | null;
  payment: { id: string; status: string; amount: number; method: string } | null;
  shipment: { id: string; carrier: string; tracking_number: string; status: string } | null;
  shipping_difference: number;
  refunds: Array<{
    id: string;
    kind: string;
    amount: number;
    status: string;
    /** return: `item_ids`; exchange: `item_id` (which lines it settled). */
    details?: Record<string, unknown> | null;
    created_at?: string;
  }>;
  created_at: string;
  updated_at: string;
  /** When the payment succeeded and the parcel went to the carrier; null until then. */
  paid_at?: string | null;
  shipped_at?: string | null;
  delivered_at?: string | null;
  /** When the shop stops accepting returns and exchanges for this order (its policy, not ours). */
  returns_until?: string | null;
  reference?: string | null;
}
export interface ShopQuote {
  method: "standard" | "express" | "same_day";
  price: number;
  eta_days: number;
}
export interface ShopCoupon {
  code: string;
  description: string;
  discount: number;
  min_subtotal: number;
  eligible: boolean;
  reason?: string | null;
}
export interface ShopPayment {
  id: string;
  order_id: string;
  status: string;
  amount: number;
  method: string;
  /** Which of the customer's payment methods paid (its label is on the customer's methods). */
  payment_method_id?: string;
  reference?: string | null;
}
export interface ShopRefund {
  id: string;
  order_id: string;
  kind: string;
  amount: number;
  status: string;
  reference?: string | null;
}
export interface Page<T> {
  data: T[];
  page: number;
  per_page: number;
  total: number;
  next_page: number | null;
}

function listOf<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? (data as T[]) : [];
}

/** The shop side of the legacy API, as Signpost's capabilities and views need it. */
export function createShopAdapter(options: HttpClientOptions & { lookups?: CachedLookups }) {
  const { lookups = uncachedLookups, ...httpOptions } = options;
  const http: HttpClient = createHttpClient(httpOptions);
  const enc = encodeURIComponent;
  return {
    http,
    /**
     * The customer with this email: who the caller is in the shop, which decides the orders a
     * member may see. Every order view asks, so it is remembered (30 s at most, per tenant,
     * credentials and person: a customer record deleted or re-addressed in the shop is seen by
     * then). Only who they are is kept, never the balance, which every payment changes.
     */
    async customerByEmail(email: string): Promise<ShopCustomerRef | null> {
      const wanted = email.toLowerCase();
      return lookups.remember(`customer-by-email\u0000${wanted}`, async () => {
        const body = await http.get<unknown>("/v1/customers", { email });
        const found = listOf<ShopCustomer>(body).find((c) => c.email.toLowerCase() === wanted);
        return found ? Object.freeze({ id: found.id, email: found.email, name: found.name }) : null;
      });
    },
    async customer(id: string) {
      return http.get<ShopCustomer>(`/v1/customers/${enc(id)}`);
    },
    async addresses(customerId: string): Promise<ShopAddress[]> {
      return listOf<ShopAddress>(await http.get<unknown>(`/v1/customers/${enc(customerId)}/addresses`));
    },
    async paymentMethods(customerId: string): Promise<ShopPaymentMethod[]> {
      return listOf<ShopPaymentMethod>(
        await http.get<unknown>(`/v1/customers/${enc(customerId)}/payment-methods`),
      );
    },
    async cart(customerId: string) {
      return http.get<{
        customer_id: string;
        items: Array<{ product_id: string; name: string; quantity: number; unit_price: number }>;
        subtotal: number;
      }>(`/v1/customers/${enc(customerId)}/cart`);
    },
    async product(id: string) {
      return http.get<ShopProduct>(`/v1/products/${enc(id)}`);
    },
    async products(query: { q?: string; sort?: string; page?: number; per_page?: number } = {}) {
      return (
        (await http.get<Page<ShopProduct>>("/v1/products", query)) ?? {
          data: [],
          page: 1,
          per_page: 20,
          total: 0,
          next_page: null,
        }
      );
    },
    async inventory(productId: string) {
      return http.get<{ product_id: string; available: number; reserved: number }>(
        `/v1/inventory/${enc(productId)}`,
      );
    },
    async quotes(input: {
      customer_id: string;
      address_id: string;
      items: Array<{ product_id: string; quantity: number }>;
    }) {
      const res = await http.compute<{ quotes: ShopQuote[] }>("/v1/shipping/quotes", input);
      return res.ok ? { ok: true as const, quotes: res.body.quotes } : res;
    },
    async coupons(customerId: string, subtotal: number): Promise<ShopCoupon[]> {
      return listOf<ShopCoupon>(
        await http.get<unknown>("/v1/coupons", { customer_id: customerId, subtotal }),
      );
    },
    async order(id: string) {
      return http.get<ShopOrder>(`/v1/orders/${enc(id)}`);
    },
    async orders(query: {
      customer_id?: string;
      status?: string;
      /** How it was paid: `balance` (store credit) or `card`. */
      payment_method?: string;
      reference?: string;
      page?: number;
      per_page?: number;
    }) {
      return (
        (await http.get<Page<ShopOrder>>("/v1/orders", query)) ?? {
          data: [],
          page: 1,
          per_page: 20,
          total: 0,
          next_page: null,
        }
      );
    },
    async tracking(orderId: string) {
      return http.read(`/v1/orders/${enc(orderId)}/tracking`);
    },
    async paymentsByReference(reference: string): Promise<ShopPayment[]> {
      return listOf<ShopPayment>(await http.get<unknown>("/v1/payments", { reference }));
    },
    async paymentsByOrder(orderId: string): Promise<ShopPayment[]> {
      return listOf<ShopPayment>(await http.get<unknown>("/v1/payments", { order_id: orderId }));
    },
    /**
     * The label of the method that made a payment ("Visa •••• 4242"): the payments list names the
     * method, the customer's methods its label. Remembered per payment like the customer: a
     * payment made never changes its method, so a steady caller's order view costs no more reads.
     */
    async paymentMethodLabel(payment: { id: string; order_id: string; customer_id: string }) {
      return lookups.remember(`payment-method-label\u0000${payment.id}`, async () => {
        const [payments, methods] = await Promise.all([
          this.paymentsByOrder(payment.order_id),
          this.paymentMethods(payment.customer_id),
        ]);
        const methodId = payments.find((p) => p.id === payment.id)?.payment_method_id;
        return methods.find((m) => m.id === methodId)?.label ?? null;
      });
    },
    async refundsByReference(reference: string): Promise<ShopRefund[]> {
      return listOf<ShopRefund>(await http.get<unknown>("/v1/refunds", { reference }));
    },
    async ordersByReference(reference: string): Promise<ShopOrder[]> {
      return listOf<ShopOrder>(await http.get<unknown>("/v1/orders", { reference }));
    },
  };
}

export type ShopAdapter = ReturnType<typeof createShopAdapter>;
