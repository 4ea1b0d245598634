import { consoleRoute } from "@/app/_lib/console-route";
import { listConnectors } from "@/server/gateway/console/manage-connectors";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({ roles: ["admin"] }, async ({ db, ctx }) =>
  Response.json({ connectors: await listConnectors(db, ctx) }, { headers: { "cache-control": "no-store" } }),
);
