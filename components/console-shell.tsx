"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
import { apiGet } from "./api-client";
import { ConsoleNav, type ConsoleUser, type Summary } from "./console-nav";
import { PendingNotifier } from "./pending-notifier";

/**
 * The console's frame: a sidebar from 768 px up; below that a top bar with a menu button that
 * opens the same navigation over the page (a phone keeps the whole width for the content).
 */
export function ConsoleShell({
  user,
  notifyBrowser,
  children,
}: {
  user: ConsoleUser;
  notifyBrowser: boolean;
  children: ReactNode;
}) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const summary = useQuery({ queryKey: ["summary"], queryFn: () => apiGet<Summary>("/api/console/summary") });
  const waiting = (summary.data?.pendingApprovals ?? 0) + (summary.data?.pendingPermissionRequests ?? 0);
  // A link followed from the menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the path changes
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <PendingNotifier summary={summary.data} enabled={notifyBrowser} />
      <div className="min-h-screen md:flex">
        <div className="palette-fixed sticky top-0 z-30 flex items-center justify-between gap-2 bg-slate-900 px-3 py-2 md:hidden">
          <Link
            href="/"
            className="flex items-center gap-2 text-base font-semibold text-white focus-visible:outline-2 focus-visible:outline-sky-400"
          >
            <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-sky-400" />
            Signpost
          </Link>
          <button
            type="button"
            aria-expanded={open}
            aria-controls="console-nav"
            onClick={() => setOpen((o) => !o)}
            className="flex items-center gap-2 rounded-md px-3 py-2 text-sm text-white ring-1 ring-slate-600 focus-visible:outline-2 focus-visible:outline-sky-400"
          >
            {open ? "Close menu" : "Menu"}
            {waiting > 0 ? (
              <span
                className="rounded-full bg-amber-400 px-1.5 text-xs font-semibold text-slate-900"
                data-testid="menu-pending-count"
              >
                {waiting}
                <span className="sr-only"> waiting</span>
              </span>
            ) : null}
          </button>
        </div>
        <aside
          id="console-nav"
          className={`palette-fixed bg-slate-900 md:block md:w-56 md:shrink-0 ${open ? "block" : "hidden"}`}
        >
          <div className="md:sticky md:top-0 md:h-screen md:overflow-y-auto">
            <ConsoleNav user={user} summary={summary.data} />
          </div>
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-4 md:px-8 md:py-6">
          {children}
        </main>
      </div>
    </>
  );
}
