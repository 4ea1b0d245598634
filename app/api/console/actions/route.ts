import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { actionListFilterSchema, listActions } from "@/server/gateway/console/list-actions";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({}, async ({ req, db, ctx }) => {
  const sp = new URL(req.url).searchParams;
  const filter = actionListFilterSchema.safeParse({
    ...(sp.get("status") ? { status: sp.get("status") } : {}),
    ...(sp.get("capability") ? { capability: sp.get("capability") } : {}),
  });
  if (!filter.success) return errorResponse("invalid_request", "Invalid filter.");
  return Response.json(
    { actions: await listActions(db, ctx, filter.data) },
    { headers: { "cache-control": "no-store" } },
  );
});
