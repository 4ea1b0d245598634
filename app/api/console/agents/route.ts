import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import {
  createAgent,
  createAgentInputSchema,
  listAgents,
  listTenantUsers,
} from "@/server/gateway/console/manage-agents";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({ roles: ["admin"] }, async ({ db, ctx }) =>
  Response.json(
    { agents: await listAgents(db, ctx), users: await listTenantUsers(db, ctx) },
    { headers: { "cache-control": "no-store" } },
  ),
);

/** The answer carries the full key this once; it is never readable again. */
export const POST = consoleRoute(
  { roles: ["admin"], body: createAgentInputSchema },
  async ({ db, ctx, body }) => resultResponse(await createAgent(db, ctx, body), 201),
);
