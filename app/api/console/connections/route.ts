import { consoleRoute } from "@/app/_lib/console-route";
import { listMyConnections, listTenantConnections } from "@/server/gateway/connections/connect-flow";

export const dynamic = "force-dynamic";

/** The signed-in person's own connections; an admin also sees who in the tenant connected what. */
export const GET = consoleRoute({}, async ({ db, ctx }) =>
  Response.json(
    {
      mine: await listMyConnections(db, ctx),
      ...(ctx.role === "admin" ? { everyone: await listTenantConnections(db, ctx.tenantId) } : {}),
    },
    { headers: { "cache-control": "no-store" } },
  ),
);
