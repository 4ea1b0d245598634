import { cookies } from "next/headers";
import { errorResponse, isHttps, sameOrigin } from "@/app/_lib/console-route";
import { getDb } from "@/server/db/client";
import { consoleErrorStatus } from "@/server/gateway/console/console-result";
import { recordConsoleAudit } from "@/server/gateway/console/record-console-audit";
import { SESSION_COOKIE, signIn, signInInputSchema } from "@/server/gateway/console-session";

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

/**
 * The client's address for the per-address limit. Next.js fills X-Forwarded-For with the socket's
 * address when no proxy set it; behind a proxy the LAST entry is the one our nearest proxy saw
 * (earlier entries are whatever the client claimed). Without a proxy a client can still choose
 * the header's value, so the per-email limit is the one that cannot be dodged.
 */
function clientAddress(req: Request): string | undefined {
  const forwarded = req.headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return (last || req.headers.get("x-real-ip")?.trim() || undefined)?.slice(0, 64);
}
