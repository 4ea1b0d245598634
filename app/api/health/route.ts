import { getDb } from "@/server/db/client";
import { databaseUrl, providerOf } from "@/server/db/database-url";
import { egressFetch } from "@/server/egress/egress-fetch";
import { defaultLegacyUrl } from "@/server/gateway/connector-credentials";
import { logger } from "@/server/logger";

// The demo's all-in-one check, for people and scripts (`npm start` waits on it): the database
// answers a query and the legacy service answers /health. 200 when both do, 503 otherwise, JSON
// either way. Orchestrators use /api/health/live and /api/health/ready instead: this one fails
// when a backend system is down, which is no reason to restart or drain Signpost.
// Unauthenticated, so it says only which part failed: the reason (which can name hosts) and
// the legacy address go to the server log, not to whoever asks.
export const dynamic = "force-dynamic";

const TIMEOUT_MS = 2_000;

type Check = { ok: boolean; latencyMs: number };

async function timed(part: string, run: () => Promise<unknown>): Promise<Check> {
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
    // The first line only: no stack, no connection string.
    const message = (error instanceof Error ? error.message.split("\n")[0] : String(error))?.replace(
      /\/\/[^/@\s]*@/g,
      "//***@",
    );
    logger.warn({ check: part, err: message?.slice(0, 200) }, `health: ${part} check failed`);
    return { ok: false, latencyMs: Math.round(performance.now() - started) };
  }
}

export async function GET(): Promise<Response> {
  const [database, legacy] = await Promise.all([
    timed("database", () => getDb().$queryRawUnsafe("SELECT 1")),
    timed(`legacy (${defaultLegacyUrl()})`, async () => {
      const response = await egressFetch(`${defaultLegacyUrl()}/health`, {
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: "manual",
      });
      if (!response.ok) throw new Error(`legacy /health answered ${response.status}`);
    }),
  ]);
  const ok = database.ok && legacy.ok;
  return Response.json(
    {
      ok,
      database: { provider: providerOf(databaseUrl()), ...database },
      legacy,
    },
    { status: ok ? 200 : 503, headers: { "cache-control": "no-store" } },
  );
}
