import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

/** Recovery queue: ask the legacy system what really happened (audited by the gateway). */
export const POST = consoleRoute({ roles: ["admin", "support"] }, async ({ ctx, params }) =>
  resultResponse(
    fromGatewayOutcome(
      await getConsoleGateway().verifyAction(consolePerson(ctx), { action_id: params.id ?? "" }),
    ),
  ),
);
