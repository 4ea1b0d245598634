import { consoleRoute, errorResponse, resultResponse } from "@/app/_lib/console-route";
import {
  connectorNameSchema,
  connectorSettingsInputSchema,
  updateConnectorSettings,
} from "@/server/gateway/console/manage-connectors";

export const dynamic = "force-dynamic";

export const PUT = consoleRoute(
  { roles: ["admin"], body: connectorSettingsInputSchema },
  async ({ db, ctx, body, params }) => {
    const connector = connectorNameSchema.safeParse(params.connector);
    if (!connector.success) return errorResponse("invalid_request", "Invalid connector name.");
    return resultResponse(await updateConnectorSettings(db, ctx, connector.data, body));
  },
);
