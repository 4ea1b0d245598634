import { consoleRoute } from "@/app/_lib/console-route";

export const dynamic = "force-dynamic";

/** Agent ids and names for the monitor's filter and rows (no keys, no prefixes). */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ db, ctx }) => {
  const agents = await db.agent.findMany({
    where: { tenantId: ctx.tenantId },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  return Response.json({ agents }, { headers: { "cache-control": "no-store" } });
});
