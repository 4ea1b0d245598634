import { parseAuditQuery } from "@/app/_lib/audit-query";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { auditFilterSchema, listAuditEvents } from "@/server/gateway/console/list-audit-events";

export const dynamic = "force-dynamic";

/** Backfill and paging for the monitor: newest first, `before` pages back, `after` reads forward. */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ req, db, ctx }) => {
  const q = parseAuditQuery(new URL(req.url).searchParams);
  if (!q.ok) return errorResponse("invalid_request", q.message);
  const filter = auditFilterSchema.parse(q.filter);
  const events = await listAuditEvents(db, ctx, {
    filter,
    afterSeq: q.after,
    beforeSeq: q.before,
    limit: q.limit,
  });
  return Response.json({ events }, { headers: { "cache-control": "no-store" } });
});
