import { consoleRoute, errorResponse, resultResponse } from "@/app/_lib/console-route";
import { connectorNameSchema, testConnectorConnection } from "@/server/gateway/console/manage-connectors";

export const dynamic = "force-dynamic";

export const POST = consoleRoute({ roles: ["admin"] }, async ({ db, ctx, params }) => {
  const connector = connectorNameSchema.safeParse(params.connector);
  if (!connector.success) return errorResponse("invalid_request", "Invalid connector name.");
  return resultResponse(await testConnectorConnection(db, ctx, connector.data));
});
