import { consoleRoute, errorResponse, resultResponse } from "@/app/_lib/console-route";
import {
  connectorNameSchema,
  replaceConnectorSecret,
  secretNameSchema,
  setSecretInputSchema,
} from "@/server/gateway/console/manage-connectors";

export const dynamic = "force-dynamic";

/** Write-only: the value goes in, only `{connector, name, updatedAt}` comes back. */
export const PUT = consoleRoute(
  { roles: ["admin"], body: setSecretInputSchema },
  async ({ db, ctx, body, params }) => {
    const connector = connectorNameSchema.safeParse(params.connector);
    const name = secretNameSchema.safeParse(params.name);
    if (!connector.success || !name.success)
      return errorResponse("invalid_request", "Invalid connector or secret name.");
    return resultResponse(await replaceConnectorSecret(db, ctx, connector.data, name.data, body.value));
  },
);
