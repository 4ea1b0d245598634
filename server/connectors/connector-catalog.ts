import type { AnyCapability } from "../engine/define-capability";
import { assignTicket } from "./helpdesk/capabilities/assign-ticket";
import { changeTicketPriority } from "./helpdesk/capabilities/change-ticket-priority";
import { reopenTicket } from "./helpdesk/capabilities/reopen-ticket";
import { resolveTicket } from "./helpdesk/capabilities/resolve-ticket";
import { createHelpdeskAdapter } from "./helpdesk/helpdesk-adapter";
import type { LegacyClientOptions } from "./legacy-client";
import { afterSales } from "./shop/capabilities/after-sales";
import { changeDeliveryAddress } from "./shop/capabilities/change-delivery-address";
import { checkout } from "./shop/capabilities/checkout";
import { trackShipment } from "./shop/capabilities/track-shipment";
import { createShopAdapter } from "./shop/shop-adapter";

export interface ConnectorDefinition {
  id: string;
  title: string;
  /** URI scheme of its browse routes. */
  scheme: string;
  capabilities: AnyCapability[];
  createAdapter: (options: LegacyClientOptions) => unknown;
  /** Vault entry holding the legacy API key for this connector. */
  secretName: string;
  /**
   * The system's cheap, unauthenticated liveness path, probed by /api/health/ready: a system
   * that does not answer is reported as degraded, never as Signpost being unready.
   */
  healthPath: string;
  /** The records an id in a query can name: how their ids start and the page that shows one. */
  records: Array<{
    entity: "order" | "ticket";
    label: string;
    idPrefix: string;
    uri: (id: string) => string;
  }>;
}

/** Every connector Signpost ships, in one list: the registry the gateway and browse build on. */
export const CONNECTORS: ConnectorDefinition[] = [
  {
    id: "shop",
    title: "Shop",
    scheme: "shop",
    capabilities: [checkout, afterSales, changeDeliveryAddress, trackShipment],
    createAdapter: createShopAdapter,
    secretName: "api_key",
    healthPath: "/health",
    records: [{ entity: "order", label: "Order", idPrefix: "ord_", uri: (id) => `shop://order/${id}` }],
  },
  {
    id: "helpdesk",
    title: "Helpdesk",
    scheme: "helpdesk",
    capabilities: [assignTicket, changeTicketPriority, resolveTicket, reopenTicket],
    createAdapter: createHelpdeskAdapter,
    secretName: "api_key",
    healthPath: "/health",
    records: [
      { entity: "ticket", label: "Ticket", idPrefix: "tkt_", uri: (id) => `helpdesk://ticket/${id}` },
    ],
  },
];

/** Each record id prefix the connectors declare, with the entity it names (for capability search). */
export function recordIdPrefixes(): Record<string, string> {
  return Object.fromEntries(CONNECTORS.flatMap((c) => c.records.map((r) => [r.idPrefix, r.entity])));
}

export function capabilityRegistry(): Map<string, AnyCapability> {
  return new Map(CONNECTORS.flatMap((c) => c.capabilities.map((cap) => [cap.id, cap] as const)));
}
