import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { getActionDetail } from "@/server/gateway/console/list-actions";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({}, async ({ db, ctx, params }) => {
  const action = await getActionDetail(db, ctx, params.id ?? "");
  // Another tenant's action (or, for a member, another person's) is simply not found.
  if (!action) return errorResponse("not_found", "No such action.");
  return Response.json({ action }, { headers: { "cache-control": "no-store" } });
});
