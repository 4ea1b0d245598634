import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ServerContext,
} from "@modelcontextprotocol/server";

/**
 * What this request's client declared (2026-07-28 sends them with every request, in its
 * envelope): what a call may answer with (`input_required` only to a client that can take it).
 * Undefined for a client of the older handshake.
 */
export function clientCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
