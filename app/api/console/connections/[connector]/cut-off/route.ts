import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { cutOffConnector } from "@/server/gateway/connections/connect-flow";

export const dynamic = "force-dynamic";

/** An admin cuts a system off for everyone of the tenant: every connection dropped, the connector off. */
export const POST = consoleRoute({ roles: ["admin"] }, async ({ db, ctx, params }) => {
  const done = await cutOffConnector(db, ctx, String(params.connector).slice(0, 30));
  if (!done.ok) return errorResponse("not_found", done.message);
  return Response.json(done.value, { headers: { "cache-control": "no-store" } });
});
