import type { RunningLegacy } from "./legacy-server";

/** A record of the demo legacy service as tenant acme reads it (`orders/ord_x`, `tickets/tkt_x`). */
export async function legacyJson(
  legacy: Pick<RunningLegacy, "url" | "apiKeys">,
  path: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${legacy.url}/v1/${path}`, {
    headers: { authorization: `Bearer ${legacy.apiKeys.acme}` },
  });
  return (await res.json()) as Record<string, unknown>;
}
