import { cookies } from "next/headers";
import { errorResponse, isHttps, sameOrigin } from "@/app/_lib/console-route";
import { getDb } from "@/server/db/client";
import { consoleErrorStatus } from "@/server/gateway/console/console-result";
import { recordConsoleAudit } from "@/server/gateway/console/record-console-audit";
import { SESSION_COOKIE, signIn, signInInputSchema } from "@/server/gateway/console-session";
import { requestIdOf } from "@/server/gateway/request-id";
import { requestPeer } from "@/server/gateway/request-peer";

export async function POST(req: Request): Promise<Response> {
  // Origin check here too: it stops a site from signing a victim into the attacker's account.
  if (!sameOrigin(req)) return errorResponse("forbidden", "Cross-origin request refused.");
  const parsed = signInInputSchema.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return errorResponse("invalid_request", "Enter an email address and a password.");
  const db = getDb();
  const result = await signIn(db, parsed.data, { ip: clientAddress(req) });
  if (!result.ok && result.reason === "too_many_attempts") {
    const minutes = Math.ceil(result.retryAfterS / 60);
    return Response.json(
      {
        error: {
          code: "too_many_attempts",
          message: `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          retry_after_s: result.retryAfterS,
        },
      },
      {
        status: consoleErrorStatus.too_many_attempts,
        headers: { "cache-control": "no-store", "retry-after": String(result.retryAfterS) },
      },
    );
  }
  if (!result.ok && result.reason === "sso_only")
    return errorResponse(
      "forbidden",
      "Your organisation signs in with its company account: use “Sign in with your company account”.",
    );
  if (!result.ok) return errorResponse("unauthenticated", "That email and password do not match.");
  const store = await cookies();
  store.set(SESSION_COOKIE, result.token, {
    httpOnly: true,
    sameSite: "lax",
    secure: isHttps(req),
    path: "/",
    expires: result.expiresAt,
  });
  await recordConsoleAudit(
    db,
    { ...result.context, requestId: requestIdOf(req) },
    {
      operation: "session.signed_in",
      target: result.context.email,
      outcome: "applied",
    },
  );
  const { tenantId, userId, name, email, role } = result.context;
  return Response.json(
    { user: { tenantId, userId, name, email, role } },
    { headers: { "cache-control": "no-store" } },
  );
}

/**
 * The client's address for the per-address limit: the socket's (never X-Forwarded-For, which
 * `next start` passes on as the client sent it), or what a proxy SIGNPOST_TRUST_PROXY trusts saw.
 * Unknown (no peer stamp) means no per-address limit; the per-email limit holds regardless.
 */
function clientAddress(req: Request): string | undefined {
  return requestPeer(req.headers).address?.slice(0, 64);
}
