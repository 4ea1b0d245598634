// Liveness: the process answers HTTP. Nothing else is checked (no database, no backend), so an
// orchestrator restarts Signpost only when Signpost itself is stuck, never for someone else's
// outage. Readiness is /api/health/ready.
export const dynamic = "force-dynamic";

const started = Date.now();

export function GET(): Response {
  return Response.json(
    { ok: true, uptime_s: Math.round((Date.now() - started) / 1000) },
    { headers: { "cache-control": "no-store" } },
  );
}
