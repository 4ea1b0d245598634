import { cookies } from "next/headers";
import { errorResponse, isHttps, sameOrigin } from "@/app/_lib/console-route";
import { getDb } from "@/server/db/client";
import { recordConsoleAudit } from "@/server/gateway/console/record-console-audit";
import { SESSION_COOKIE, signIn, signInInputSchema } from "@/server/gateway/console-session";

export async function POST(req: Request): Promise<Response> {
  // Origin check here too: it stops a site from signing a victim into the attacker's account.
  if (!sameOrigin(req)) return errorResponse("forbidden", "Cross-origin request refused.");
  const parsed = signInInputSchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return errorResponse("invalid_request", "Enter an email address and a password.");
  const db = getDb();
  const result = await signIn(db, parsed.data);
  if (!result.ok) return errorResponse("unauthenticated", "That email and password do not match.");
  const store = await cookies();
  store.set(SESSION_COOKIE, result.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: isHttps(req),
    path: "/",
    expires: result.expiresAt,
  });
  await recordConsoleAudit(db, result.context, {
    operation: "session.signed_in",
    target: result.context.email,
    outcome: "applied",
  });
  const { tenantId, userId, name, email, role } = result.context;
  return Response.json(
    { user: { tenantId, userId, name, email, role } },
    { headers: { "cache-control": "no-store" } },
  );
}
