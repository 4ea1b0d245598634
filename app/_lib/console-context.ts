import { cookies } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { CONSOLE_PAGES, type ConsolePageId } from "@/components/console-pages";
import { getDb } from "@/server/db/client";
import {
  type ConsoleContext,
  type ConsoleRole,
  resolveConsoleSession,
  SESSION_COOKIE,
} from "@/server/gateway/console-session";

/** The signed-in person's trusted context, from the session cookie; null when signed out. */
export async function currentConsoleContext(): Promise<ConsoleContext | null> {
  const store = await cookies();
  return resolveConsoleSession(getDb(), store.get(SESSION_COOKIE)?.value);
}

export type PageAccess = { ctx: ConsoleContext };

/**
 * Every console page starts here: signed-out people go to sign-in (and come back to `path`);
 * a role that may not see the page gets the 403 page (app/forbidden.tsx, HTTP 403).
 */
export async function requirePageAccess(path: string, roles?: readonly ConsoleRole[]): Promise<PageAccess> {
  const ctx = await currentConsoleContext();
  if (!ctx) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  if (roles && !roles.includes(ctx.role)) forbidden();
  return { ctx };
}

/** Which roles may open which page, from the one table the nav reads too (components/console-pages.ts). */
export const pageRoles = Object.fromEntries(
  Object.entries(CONSOLE_PAGES).map(([id, page]) => [id, page.roles]),
) as { [K in ConsolePageId]: (typeof CONSOLE_PAGES)[K]["roles"] };
