import { getDb } from "@/server/db/client";
import { databaseUrl, providerOf } from "@/server/db/database-url";

// Liveness for people, scripts and load balancers: the database answers a query and the
// legacy service answers /health. 200 when both do, 503 otherwise, JSON either way.
export const dynamic = "force-dynamic";

const TIMEOUT_MS = 2_000;

type Check = { ok: boolean; latencyMs: number; error?: string };

async function timed(run: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS} ms`)), TIMEOUT_MS),
      ),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    // The message only: no stack, no connection string.
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return { ok: false, latencyMs: Math.round(performance.now() - started), error: message?.slice(0, 200) };
  }
}

/** Where the legacy service is: set by `npm start`, else the default port. */
function legacyUrl(): string {
  return process.env.SIGNPOST_LEGACY_URL ?? `http://127.0.0.1:${process.env.LEGACY_PORT ?? "4010"}`;
}

export async function GET(): Promise<Response> {
  const [database, legacy] = await Promise.all([
    timed(() => getDb().$queryRawUnsafe("SELECT 1")),
    timed(async () => {
      const response = await fetch(`${legacyUrl()}/health`, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        cache: "no-store",
      });
      if (!response.ok) throw new Error(`legacy /health answered ${response.status}`);
    }),
  ]);
  const ok = database.ok && legacy.ok;
  return Response.json(
    {
      ok,
      database: { provider: providerOf(databaseUrl()), ...database },
      legacy: { url: legacyUrl(), ...legacy },
    },
    { status: ok ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
