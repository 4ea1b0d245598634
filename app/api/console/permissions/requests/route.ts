import { consoleRoute } from "@/app/_lib/console-route";
import { listPermissionRequests } from "@/server/gateway/console/manage-permissions";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({ roles: ["admin"] }, async ({ req, db, ctx }) => {
  const all = new URL(req.url).searchParams.get("status") === "all";
  return Response.json(
    { requests: await listPermissionRequests(db, ctx, all ? "all" : "pending") },
    { headers: { "cache-control": "no-store" } },
  );
});
