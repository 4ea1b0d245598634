import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { decidePermissionRequest, decidePermissionRequestInputSchema } from "@/server/gateway/console/manage-permissions";

export const dynamic = "force-dynamic";

export const POST = consoleRoute({ roles: ["admin"], body: decidePermissionRequestInputSchema }, async ({ db, ctx, body, params }) =>
  resultResponse(await decidePermissionRequest(db, ctx, params.id ?? "", body.decision)),
);
