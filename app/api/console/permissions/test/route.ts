import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { permissionTestInputSchema, testPermission } from "@/server/gateway/console/test-permission";

export const dynamic = "force-dynamic";

/** "Would this be allowed?" — a question, not a mutation: evaluated and rolled back, not audited. */
export const POST = consoleRoute(
  { roles: ["admin"], body: permissionTestInputSchema },
  async ({ db, ctx, body }) => resultResponse(await testPermission(db, ctx, body)),
);
