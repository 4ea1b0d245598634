import { z } from "zod";
import { consoleRoute, errorResponse } from "@/app/_lib/console-route";
import { listApprovals } from "@/server/gateway/console/list-approvals";

export const dynamic = "force-dynamic";

const querySchema = z
  .object({
    status: z.enum(["pending", "decided"]).default("pending"),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .strict();

/** Pending approvals, or one page (20) of decided ones; support reads them, only the policy's people decide. */
export const GET = consoleRoute({ roles: ["admin", "support", "member"] }, async ({ req, db, ctx }) => {
  const sp = new URL(req.url).searchParams;
  const q = querySchema.safeParse(
    Object.fromEntries([...sp].filter(([k]) => k === "status" || k === "page")),
  );
  if (!q.success) return errorResponse("invalid_request", "Invalid query.");
  const approvals = await listApprovals(db, ctx, {
    status: q.data.status,
    ...(q.data.status === "decided" ? { limit: 20, offset: (q.data.page - 1) * 20 } : {}),
  });
  return Response.json({ approvals, page: q.data.page }, { headers: { "cache-control": "no-store" } });
});
