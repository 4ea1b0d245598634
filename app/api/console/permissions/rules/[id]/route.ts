import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  deletePermissionRule,
  permissionRuleInputSchema,
  updatePermissionRule,
} from "@/server/gateway/console/manage-permissions";

export const dynamic = "force-dynamic";

export const PUT = consoleRoute(
  { roles: ["admin"], body: permissionRuleInputSchema },
  async ({ db, ctx, body, params }) =>
    resultResponse(await updatePermissionRule(db, ctx, params.id ?? "", body)),
);

export const DELETE = consoleRoute({ roles: ["admin"] }, async ({ db, ctx, params }) =>
  resultResponse(await deletePermissionRule(db, ctx, params.id ?? "")),
);
