import { parseAuditQuery } from "@/app/_lib/audit-query";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { auditVolume } from "@/server/gateway/console/list-audit-events";

export const dynamic = "force-dynamic";

/** Operations and errors per bucket over the monitor's range (the last hour without one). */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ req, db, ctx }) => {
  const q = parseAuditQuery(new URL(req.url).searchParams);
  if (!q.ok) return errorResponse("invalid_request", q.message);
  const to = q.filter.to ? new Date(q.filter.to) : new Date();
  const from = q.filter.from ? new Date(q.filter.from) : new Date(to.getTime() - 3_600_000);
  if (from.getTime() >= to.getTime()) return errorResponse("invalid_request", "from must be before to.");
  return Response.json(await auditVolume(db, ctx, q.filter, { from, to }), {
    headers: { "cache-control": "no-store" },
  });
});
