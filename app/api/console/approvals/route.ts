import { consoleRoute } from "@/app/_lib/console-route";
import { listApprovals } from "@/server/gateway/console/list-approvals";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({ roles: ["admin", "member"] }, async ({ req, db, ctx }) => {
  const status = new URL(req.url).searchParams.get("status") === "decided" ? "decided" : "pending";
  return Response.json(
    { approvals: await listApprovals(db, ctx, { status }) },
    { headers: { "cache-control": "no-store" } },
  );
});
