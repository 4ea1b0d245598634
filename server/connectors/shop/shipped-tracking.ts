import type { Row } from "../sdk/browse-backend";

/**
 * "UPS 1Z999AA11001" for an order on its way (shipped, with a shipment), "" otherwise: what its
 * row in a listing or a search says, so "which orders are on their way, and the tracking
 * number?" needs no second read. A delivered order's tracking stays on its own page.
 */
export function shippedTracking(order: Row): string {
  const shipment = order.shipment as Row | null | undefined;
  if (order.status !== "shipped" || !shipment) return "";
  return `${String(shipment.carrier)} ${String(shipment.tracking_number)}`;
}
