import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { confirmView } from "@/server/gateway/console/confirm-view";

export const dynamic = "force-dynamic";

/** What the confirm screen follows live: the action's version and its newest approval. */
export const GET = consoleRoute({}, async ({ db, ctx, params }) => {
  const view = await confirmView(db, ctx, params.id ?? "");
  if (!view) return errorResponse("not_found", "No such action.");
  return Response.json({ confirmation: view }, { headers: { "cache-control": "no-store" } });
});
