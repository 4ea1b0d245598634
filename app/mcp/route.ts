import { getSignpostMcp } from "@/mcp/signpost-mcp";

// The MCP endpoint: Streamable HTTP, stateless. Everything lives in mcp/ (shared with tests and
// the stdio entry); this file only hands requests over. `serve` (and so `npm start`) answers /mcp
// on its own HTTP server before Next.js (mcp/mcp-node-route.ts, the same handler and instance);
// this route serves it wherever Next.js runs alone (`next start`, `next dev`, tests' serveRoute).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function handle(request: Request): Promise<Response> {
  return getSignpostMcp().handle(request);
}

export { handle as DELETE, handle as GET, handle as POST };
