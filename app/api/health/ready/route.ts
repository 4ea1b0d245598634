import { getDb } from "@/server/db/client";
import { databaseUrl, providerOf } from "@/server/db/database-url";
import { isDraining } from "@/server/gateway/draining";
import { checkReadiness } from "@/server/gateway/readiness";

// Readiness for load balancers and orchestrators: 200 while this instance can serve (database
// reachable, master key opens the stored secrets, migrations applied), 503 otherwise. Backend
// systems are reported per connector as degraded, with a 200: an instance cannot fix them by
// being taken out of rotation. Unauthenticated, so it names parts, never hosts or reasons.
// An instance that got SIGTERM answers 503 "draining" for SIGNPOST_DRAIN_S while it still serves,
// so that the balancer takes it out of rotation before it stops accepting connections.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  if (isDraining())
    return Response.json(
      { ok: false, ready: false, status: "draining" },
      { status: 503, headers: { "cache-control": "no-store" } },
    );
  const readiness = await checkReadiness(getDb(), {
    provider: providerOf(databaseUrl()),
    // The project folder: the HTTP server sets it; `next start` runs there.
    root: process.env.SIGNPOST_ROOT ?? process.cwd(),
  });
  return Response.json(
    { ok: readiness.ready, ...readiness },
    { status: readiness.ready ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
