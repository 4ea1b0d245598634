import type { ReactNode } from "react";
import { ConsoleProviders } from "@/components/console-providers";
import { ConsoleShell } from "@/components/console-shell";
import { getDb } from "@/server/db/client";
import type { ConsoleContext } from "@/server/gateway/console-session";

/**
 * The signed-in console around a page: providers, navigation, the pending count. The console
 * layout uses it, and so do the 403 and 404 pages (they render above that layout), so a person
 * who lands on one can go on from there.
 */
export async function ConsoleFrame({ ctx, children }: { ctx: ConsoleContext; children: ReactNode }) {
  const prefs = await getDb().user.findUnique({ where: { id: ctx.userId }, select: { notifyBrowser: true } });
  return (
    <ConsoleProviders>
      <ConsoleShell
        user={{ name: ctx.name, email: ctx.email, role: ctx.role, tenantName: ctx.tenantName }}
        notifyBrowser={prefs?.notifyBrowser ?? true}
      >
        {children}
      </ConsoleShell>
    </ConsoleProviders>
  );
}
