import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

/** Recovery queue: verify first, then retry with the original action key (the gateway's recover). */
export const POST = consoleRoute({ roles: ["admin", "support"] }, async ({ ctx, params }) =>
  resultResponse(
    fromGatewayOutcome(
      await getConsoleGateway().recoverAction(consolePerson(ctx), { action_id: params.id ?? "" }),
    ),
  ),
);
