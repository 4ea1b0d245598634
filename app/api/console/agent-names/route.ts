import { consoleRoute } from "@/app/_lib/console-route";

export const dynamic = "force-dynamic";

/**
 * Agent ids and names for the monitor's filter and rows (no keys, no prefixes), and the tenant's
 * people, so a person's own act (an approval, a grant, a revoke) is shown with who did it.
 */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ db, ctx }) => {
  const agents = await db.agent.findMany({
    where: { tenantId: ctx.tenantId },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const people = await db.user.findMany({
    where: { tenantId: ctx.tenantId },
    select: { id: true, name: true, role: true },
    orderBy: { name: "asc" },
  });
  return Response.json({ agents, people }, { headers: { "cache-control": "no-store" } });
});
