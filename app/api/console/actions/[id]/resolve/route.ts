import { z } from "zod";
import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

const bodySchema = z
  // The note is the reason when no verify supports the resolution (the gateway checks and audits it).
  .object({ resolution: z.enum(["applied", "not_applied"]), note: z.string().trim().max(1000).optional() })
  .strict();

/**
 * "Mark resolved": a person records what they established at the system of record. Only for an
 * action in the recovery queue; anything else answers 409 with the current state (and is audited).
 */
export const POST = consoleRoute(
  { roles: ["admin", "support"], body: bodySchema },
  async ({ ctx, body, params }) =>
    resultResponse(
      fromGatewayOutcome(
        await getConsoleGateway().resolveRecovery(consolePerson(ctx), {
          action_id: params.id ?? "",
          resolution: body.resolution,
          ...(body.note ? { note: body.note } : {}),
        }),
      ),
    ),
);
