import { consoleRoute } from "@/app/_lib/console-route";
import { overviewStats } from "@/server/gateway/console/overview-stats";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({}, async ({ db, ctx }) =>
  Response.json(await overviewStats(db, ctx), { headers: { "cache-control": "no-store" } }),
);
