import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { revokeAgent } from "@/server/gateway/console/manage-agents";

export const dynamic = "force-dynamic";

export const POST = consoleRoute({ roles: ["admin"] }, async ({ db, ctx, params }) =>
  resultResponse(await revokeAgent(db, ctx, params.id ?? "")),
);
