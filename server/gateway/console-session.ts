import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db/client";
import { hashPassword, verifyPassword } from "./passwords";

/** The console's cookie name. The cookie holds the raw token; the database only its sha256. */
export const SESSION_COOKIE = "sp_session";
/** Sessions last a working day; signing in again makes a new one. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export const consoleRoleSchema = z.enum(["admin", "support", "member"]);
export type ConsoleRole = z.infer<typeof consoleRoleSchema>;

/** The trusted context of a person in the console: it comes from the session, never from input. */
export type ConsoleContext = {
  sessionId: string;
  tenantId: string;
  tenantName: string;
  userId: string;
  email: string;
  name: string;
  role: ConsoleRole;
  /** The HTTP request being served (set by the console's route wrapper); audit rows keep it. */
  requestId?: string | null;
};

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

// A hash of a random password: verifying against it when the email is unknown keeps
// the time of a failed sign-in the same whether or not the account exists.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= Promise.resolve(hashPassword(randomBytes(16).toString("hex")));
  return dummyHash;
}

export const signInInputSchema = z
  .object({
    email: z.string().trim().toLowerCase().email().max(254),
    password: z.string().min(1).max(1024),
  })
  .strict();

export type SignInResult =
  | { ok: true; token: string; expiresAt: Date; context: ConsoleContext }
  | { ok: false; reason: "invalid_credentials" }
  /** The password was right, but this person's tenant signs in through its OpenID provider only. */
  | { ok: false; reason: "sso_only" }
  | { ok: false; reason: "too_many_attempts"; retryAfterS: number };

/** Failed sign-ins count for this long; a success resets the email's count. */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failed attempts allowed per email within the window (guessing one person's password). */
export const SIGN_IN_EMAIL_LIMIT = 5;
/** Failed attempts allowed per client address within the window (spraying many emails). */
export const SIGN_IN_IP_LIMIT = 20;

export type SignInOptions = {
  /** The client's address; without one only the per-email limit applies. */
  ip?: string;
  /** Injectable clock for tests. */
  now?: () => Date;
};

/**
 * Checks email and password and opens a session. The raw token is returned once, for the cookie.
 * Throttled through the database (SignInFailure rows) so the limits hold across instances.
 */
export async function signIn(
  db: Db,
  input: z.infer<typeof signInInputSchema>,
  options: SignInOptions = {},
): Promise<SignInResult> {
  const now = options.now?.() ?? new Date();
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS);
  const ip = options.ip ?? "";
  // Reserve a failure row BEFORE checking the password and count with it included: parallel
  // guesses each see the others' reservations, so a burst cannot slip past the limit while
  // the (slow, by design) password checks run. A success deletes it with the email's others.
  const reservation = await db.signInFailure.create({ data: { email: input.email, ip, createdAt: now } });
  const throttled = await throttleFor(db, input.email, ip, since, now);
  if (throttled) {
    // Refused attempts do not extend the lock-out: the window runs from the counted failures.
    await db.signInFailure.deleteMany({ where: { id: reservation.id } });
    return { ok: false, reason: "too_many_attempts", retryAfterS: throttled };
  }
  const user = await db.user.findUnique({ where: { email: input.email }, include: { tenant: true } });
  if (!user) {
    await verifyPassword(input.password, await getDummyHash());
    await pruneFailures(db, since);
    return { ok: false, reason: "invalid_credentials" };
  }
  const valid = await verifyPassword(input.password, user.passwordHash);
  const role = consoleRoleSchema.safeParse(user.role);
  if (!valid || !role.success) {
    await pruneFailures(db, since);
    return { ok: false, reason: "invalid_credentials" };
  }
  if (!user.tenant.passwordSignIn) {
    // Told only after the password matched, so it says nothing about who has an account. The
    // attempt still counts as a failure: a known password is no way around the company's sign-in.
    await pruneFailures(db, since);
    return { ok: false, reason: "sso_only" };
  }
  await db.signInFailure.deleteMany({ where: { email: input.email } });
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const session = await db.session.create({
    data: { tokenHash: hashSessionToken(token), userId: user.id, tenantId: user.tenantId, expiresAt },
  });
  return {
    ok: true,
    token,
    expiresAt,
    context: {
      sessionId: session.id,
      tenantId: user.tenantId,
      tenantName: user.tenant.name,
      userId: user.id,
      email: user.email,
      name: user.name,
      role: role.data,
    },
  };
}

/**
 * Seconds until an attempt would be allowed again, or 0 when it is allowed now. Counts include
 * the caller's own reservation, hence `> limit`.
 */
async function throttleFor(db: Db, email: string, ip: string, since: Date, now: Date): Promise<number> {
  const keys: { where: { email: string } | { ip: string }; limit: number }[] = [
    { where: { email }, limit: SIGN_IN_EMAIL_LIMIT },
  ];
  if (ip) keys.push({ where: { ip }, limit: SIGN_IN_IP_LIMIT });
  let wait = 0;
  for (const key of keys) {
    // No upper bound: a parallel attempt's reservation stamped a moment after this one's clock
    // still counts (with `lte: now` a burst on two instances could get one check too many).
    const where = { ...key.where, createdAt: { gt: since } };
    const count = await db.signInFailure.count({ where });
    if (count <= key.limit) continue;
    // Allowed again once enough of the oldest failures leave the window to get under the limit.
    const [pivot] = await db.signInFailure.findMany({
      where,
      orderBy: { createdAt: "asc" },
      skip: count - 1 - key.limit,
      take: 1,
      select: { createdAt: true },
    });
    const ms = (pivot?.createdAt.getTime() ?? now.getTime()) + SIGN_IN_WINDOW_MS - now.getTime();
    wait = Math.max(wait, Math.max(1, Math.ceil(ms / 1000)));
  }
  return wait;
}

/**
 * Failures older than the window no longer count: drop them all (not only this email's and
 * address's), so rows of emails and addresses never seen again do not pile up. The table then
 * holds at most one window of failures, so the unindexed scan stays small.
 */
async function pruneFailures(db: Db, since: Date): Promise<void> {
  await db.signInFailure.deleteMany({ where: { createdAt: { lte: since } } });
}

/** Resolves a session cookie to the person's trusted context, or null when missing, unknown or expired. */
export async function resolveConsoleSession(
  db: Db,
  token: string | undefined | null,
): Promise<ConsoleContext | null> {
  if (!token || token.length > 200) return null;
  const session = await db.session.findUnique({
    where: { tokenHash: hashSessionToken(token) },
    include: { user: { include: { tenant: true } } },
  });
  if (!session) return null;
  if (session.expiresAt.getTime() <= Date.now()) {
    await db.session.deleteMany({ where: { id: session.id } });
    return null;
  }
  const role = consoleRoleSchema.safeParse(session.user.role);
  // The session's tenant must still be the user's tenant; anything else is not a valid session.
  if (!role.success || session.user.tenantId !== session.tenantId) return null;
  return {
    sessionId: session.id,
    tenantId: session.tenantId,
    tenantName: session.user.tenant.name,
    userId: session.userId,
    email: session.user.email,
    name: session.user.name,
    role: role.data,
  };
}

/** Ends a session; unknown tokens are ignored so sign-out is idempotent. */
export async function signOut(db: Db, token: string | undefined | null): Promise<void> {
  if (!token) return;
  await db.session.deleteMany({ where: { tokenHash: hashSessionToken(token) } });
}
