import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { decideApproval, decideApprovalInputSchema } from "@/server/gateway/console/decide-approval";

export const dynamic = "force-dynamic";

/** A person approves or rejects the action's pending approval (members: their own; admins: the tenant's). */
export const POST = consoleRoute({ roles: ["admin", "member"], body: decideApprovalInputSchema }, async ({ db, ctx, body, params }) =>
  resultResponse(await decideApproval(db, ctx, params.id ?? "", body)),
);
