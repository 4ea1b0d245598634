/**
 * A checkout complete from its start (Signpost Mugs to Alice's office, paid from her balance),
 * so it goes straight to her approval: the start most approval tests begin with.
 */
export function mugCheckout(quantity = 1) {
  return {
    capability: "checkout",
    patch: {
      items: [{ product_id: "prod_mug", quantity }],
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
    },
  };
}
