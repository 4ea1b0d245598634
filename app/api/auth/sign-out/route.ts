import { cookies } from "next/headers";
import { errorResponse, sameOrigin } from "@/app/_lib/console-route";
import { getDb } from "@/server/db/client";
import { recordConsoleAudit } from "@/server/gateway/console/record-console-audit";
import { resolveConsoleSession, SESSION_COOKIE, signOut } from "@/server/gateway/console-session";
import { requestIdOf } from "@/server/gateway/request-id";

export async function POST(req: Request): Promise<Response> {
  if (!sameOrigin(req)) return errorResponse("forbidden", "Cross-origin request refused.");
  const store = await cookies();
  const token = store.get(SESSION_COOKIE)?.value;
  const db = getDb();
  const ctx = await resolveConsoleSession(db, token);
  await signOut(db, token);
  store.delete(SESSION_COOKIE);
  if (ctx)
    await recordConsoleAudit(
      db,
      { ...ctx, requestId: requestIdOf(req) },
      {
        operation: "session.signed_out",
        target: ctx.email,
        outcome: "applied",
      },
    );
  return Response.json({ signedOut: true }, { headers: { "cache-control": "no-store" } });
}
