import { whenText } from "../sdk/when-text";
import type { ShopAdapter, ShopOrder } from "./shop-adapter";

/** One carrier scan, as the legacy tracking answer lists them (oldest first). */
interface TrackingEvent {
  at?: unknown;
  location?: unknown;
  description?: unknown;
}

/**
 * The latest carrier scan of an order on its way, on one line: "Arrived at destination depot,
 * Shelbyville depot, 2026-12-04 07:19 UTC, 5 h ago (read from the carrier just now)". Set N: a
 * model shown a "last scan" was not sure it was current and tracked the parcel again; the line
 * says it is the latest and was read at this view. Issue 23: asked "what's the tracking number,
 * and where is it now?", a model read the order (number, "in_transit", no place) and then its
 * tracking page for the place. Only a shipped order with a shipment costs the one tracking read;
 * a delivered one says "delivered" already. Null when there is none, or the read fails: the line
 * adds to an order that stands without it, so a failed read never hides the order.
 */
export async function lastScan(adapter: ShopAdapter, order: ShopOrder): Promise<string | null> {
  if (order.status !== "shipped" || !order.shipment) return null;
  try {
    const res = await adapter.tracking(order.id);
    if (res.kind !== "ok") return null;
    const events = (res.body as { events?: unknown } | null)?.events;
    if (!Array.isArray(events) || events.length === 0) return null;
    return scanLine(events.at(-1) as TrackingEvent);
  } catch {
    return null;
  }
}

/** Said after the scan: the view read it from the carrier, so tracking again tells nothing newer. */
const READ_NOW = "(read from the carrier just now)";

/** "what, where, when", leaving out what the scan does not say. */
function scanLine(event: TrackingEvent): string | null {
  const words = [event.description, event.location]
    .filter((v): v is string => typeof v === "string" && v.trim() !== "")
    .map((v) => v.trim());
  if (!words.length) return null;
  const at = typeof event.at === "string" ? whenText(event.at) : "";
  return `${[...words, ...(at ? [at] : [])].join(", ")} ${READ_NOW}`;
}
