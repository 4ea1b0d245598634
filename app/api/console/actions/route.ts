import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { actionListFilterSchema, listActions } from "@/server/gateway/console/list-actions";

export const dynamic = "force-dynamic";

const KEYS = ["status", "capability", "user", "from", "to", "page", "pageSize"] as const;

/** One page of actions: `status`, `capability`, `from`/`to` (started), `page`, `pageSize` (≤ 200). */
export const GET = consoleRoute({}, async ({ req, db, ctx }) => {
  const sp = new URL(req.url).searchParams;
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const v = sp.get(key);
    if (v) raw[key] = v;
  }
  const filter = actionListFilterSchema.safeParse(raw);
  if (!filter.success) return errorResponse("invalid_request", "Invalid filter.");
  return Response.json(await listActions(db, ctx, filter.data), { headers: { "cache-control": "no-store" } });
});
