/**
 * What people call each way the shop takes payment (`balance` is the customer's store credit):
 * one list for the forms that take a payment type and the orders listing that filters by it.
 * Phrases, never "credit" alone: "store credit" is the balance, "credit card" a card. Played:
 * "from my store credit" was read as an ask nothing does, "account balance" or "credit card" was
 * refused as no method, and (set K) "which of my orders did I pay from my store credit?" opened
 * the profile, where the balance is, instead of the orders it paid.
 */
export const PAYMENT_WORDS = {
  balance: ["balance", "store credit", "account balance", "shop credit", "credit balance", "wallet"],
  card: ["card", "credit card", "debit card", "bank card"],
} as const satisfies Record<"balance" | "card", readonly string[]>;
