import { z } from "zod";
import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

const bodySchema = z.object({ decision: z.enum(["grant_once", "grant_rule", "deny"]) }).strict();

/** An admin answers an agent's request through the gateway (grant once, grant as a rule at the top, or deny). */
export const POST = consoleRoute({ roles: ["admin"], body: bodySchema }, async ({ ctx, body, params }) => {
  const input =
    body.decision === "deny"
      ? { request_id: params.id ?? "", decision: "deny" as const, mode: "once" as const }
      : {
          request_id: params.id ?? "",
          decision: "grant" as const,
          mode: body.decision === "grant_once" ? ("once" as const) : ("rule" as const),
        };
  return resultResponse(
    fromGatewayOutcome(await getConsoleGateway().decidePermissionRequest(consolePerson(ctx), input)),
  );
});
