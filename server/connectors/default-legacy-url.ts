/**
 * Where the demo systems (shop, helpdesk) live when a tenant's settings name no address:
 * `SIGNPOST_LEGACY_URL` (set by `npm start`), else the demo service on `LEGACY_PORT`.
 * `/api/health` probes the same address, so it checks the system those connectors would call.
 */
export function defaultLegacyUrl(): string {
  return process.env.SIGNPOST_LEGACY_URL ?? `http://127.0.0.1:${process.env.LEGACY_PORT ?? "4010"}`;
}
