import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  createPermissionRule,
  listPermissionRules,
  permissionRuleInputSchema,
} from "@/server/gateway/console/manage-permissions";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({ roles: ["admin"] }, async ({ db, ctx }) =>
  Response.json({ rules: await listPermissionRules(db, ctx) }, { headers: { "cache-control": "no-store" } }),
);

export const POST = consoleRoute(
  { roles: ["admin"], body: permissionRuleInputSchema },
  async ({ db, ctx, body }) => resultResponse(await createPermissionRule(db, ctx, body), 201),
);
