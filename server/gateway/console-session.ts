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
  | { ok: false; reason: "invalid_credentials" };

/** Checks email and password and opens a session. The raw token is returned once, for the cookie. */
export async function signIn(db: Db, input: z.infer<typeof signInInputSchema>): Promise<SignInResult> {
  const user = await db.user.findUnique({ where: { email: input.email }, include: { tenant: true } });
  if (!user) {
    await verifyPassword(input.password, await getDummyHash());
    return { ok: false, reason: "invalid_credentials" };
  }
  const valid = await verifyPassword(input.password, user.passwordHash);
  const role = consoleRoleSchema.safeParse(user.role);
  if (!valid || !role.success) return { ok: false, reason: "invalid_credentials" };
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
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
