import { getDb } from "@/server/db/client";
import { databaseUrl, providerOf } from "@/server/db/database-url";
import { checkReadiness } from "@/server/gateway/readiness";

// Readiness for load balancers and orchestrators: 200 while this instance can serve (database
// reachable, master key opens the stored secrets, migrations applied), 503 otherwise. Backend
// systems are reported per connector as degraded, with a 200: an instance cannot fix them by
// being taken out of rotation. Unauthenticated, so it names parts, never hosts or reasons.
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
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
