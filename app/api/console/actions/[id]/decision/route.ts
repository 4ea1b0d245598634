import { z } from "zod";
import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  consolePerson,
  fromGatewayOutcome,
  getConsoleGateway,
} from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({
    decision: z.enum(["approve", "reject"]),
    /** The version the person was shown: the gateway refuses a decision on any other. */
    version: z.number().int().positive(),
    reason: z.string().trim().max(500).optional(),
  })
  .strict();

/** A person approves or rejects through the gateway, which decides who may (the capability's approver policy). */
export const POST = consoleRoute(
  { roles: ["admin", "support", "member"], body: bodySchema },
  async ({ ctx, body, params }) => {
    const out = await getConsoleGateway().decideApproval(consolePerson(ctx), {
      action_id: params.id ?? "",
      version: body.version,
      decision: body.decision,
      ...(body.reason ? { reason: body.reason } : {}),
    });
    return resultResponse(fromGatewayOutcome(out));
  },
);
