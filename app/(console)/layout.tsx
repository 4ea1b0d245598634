import type { ReactNode } from "react";
import { currentConsoleContext } from "@/app/_lib/console-context";
import { ConsoleNav } from "@/components/console-nav";
import { ConsoleProviders } from "@/components/console-providers";

// Every console page depends on the session cookie: never prerender or cache them.
export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const ctx = await currentConsoleContext();
  // Signed out: the page itself redirects to sign-in with the way back; render nothing around it.
  if (!ctx) return <>{children}</>;
  return (
    <ConsoleProviders>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen">
        <aside className="w-56 shrink-0 bg-slate-900">
          <div className="sticky top-0 h-screen">
            <ConsoleNav
              user={{ name: ctx.name, email: ctx.email, role: ctx.role, tenantName: ctx.tenantName }}
            />
          </div>
        </aside>
        <main id="main" className="min-w-0 flex-1 px-8 py-6">
          {children}
        </main>
      </div>
    </ConsoleProviders>
  );
}
