import { consoleRoute } from "@/app/_lib/console-route";
import { consolePerson, getConsoleGateway } from "@/server/gateway/console/console-gateway";

export const dynamic = "force-dynamic";

/** The recovery queue: effects in unknown, stuck pending, or applied-but-not-found. */
export const GET = consoleRoute({ roles: ["admin", "support"] }, async ({ ctx }) =>
  Response.json(
    { items: await getConsoleGateway().listRecoveryQueue(consolePerson(ctx)) },
    { headers: { "cache-control": "no-store" } },
  ),
);
