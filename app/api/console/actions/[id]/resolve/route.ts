import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { resolveAction, resolveActionInputSchema } from "@/server/gateway/console/resolve-action";

export const dynamic = "force-dynamic";

export const POST = consoleRoute({ roles: ["admin", "support"], body: resolveActionInputSchema }, async ({ db, ctx, body, params }) =>
  resultResponse(await resolveAction(db, ctx, params.id ?? "", body)),
);
