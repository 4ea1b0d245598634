/** The one warehouse; same-day delivery only reaches addresses in its city. */
export const warehouseCity = "Springfield";

export type ShippingMethod = "standard" | "express" | "same_day";

export interface ShippingQuote {
  method: ShippingMethod;
  price: number;
  eta_days: number;
}

export interface QuoteAddress {
  city: string;
  country: string;
}

/**
 * Shipping prices from parcel weight and destination: every started kilogram after the
 * first costs extra, international parcels cost three times as much, same-day exists only
 * inside the warehouse city. Orders and address changes price with the same function.
 */
export function quoteShipping(weightGrams: number, address: QuoteAddress): ShippingQuote[] {
  const extraKg = Math.max(0, Math.ceil(weightGrams / 1000) - 1);
  const domestic = address.country.toUpperCase() === "US";
  const factor = domestic ? 1 : 3;
  const quotes: ShippingQuote[] = [
    { method: "standard", price: (500 + 150 * extraKg) * factor, eta_days: domestic ? 5 : 12 },
    { method: "express", price: (1200 + 300 * extraKg) * factor, eta_days: domestic ? 2 : 5 },
  ];
  if (domestic && address.city.trim().toLowerCase() === warehouseCity.toLowerCase()) {
    quotes.push({ method: "same_day", price: 1500 + 200 * extraKg, eta_days: 0 });
  }
  return quotes;
}
