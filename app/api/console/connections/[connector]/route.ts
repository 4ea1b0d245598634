import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { disconnect } from "@/server/gateway/connections/connect-flow";

export const dynamic = "force-dynamic";

/** The person disconnects their own account (revoked at the system where it offers revocation). */
export const DELETE = consoleRoute({}, async ({ db, ctx, params }) => {
  const done = await disconnect(db, ctx, String(params.connector).slice(0, 30));
  if (!done.ok) return errorResponse("not_found", done.message);
  return Response.json(done.value, { headers: { "cache-control": "no-store" } });
});
