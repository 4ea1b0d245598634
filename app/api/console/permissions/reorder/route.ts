import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { reorderPermissionRules, reorderRulesInputSchema } from "@/server/gateway/console/manage-permissions";

export const dynamic = "force-dynamic";

export const POST = consoleRoute(
  { roles: ["admin"], body: reorderRulesInputSchema },
  async ({ db, ctx, body }) => resultResponse(await reorderPermissionRules(db, ctx, body.ids)),
);
