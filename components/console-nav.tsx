"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { apiSend } from "./api-client";
import { CONSOLE_PAGES, type ConsolePage } from "./console-pages";

type Role = "admin" | "support" | "member";
type NavItem = { href: string; label: string; roles: readonly Role[] };

/** The pages with a nav title, in table order, with the roles their pages let in. */
export const navItems: NavItem[] = Object.values(CONSOLE_PAGES).flatMap((page: ConsolePage) =>
  page.title ? [{ href: page.path, label: page.title, roles: page.roles }] : [],
);

export type Summary = {
  pendingApprovals: number;
  /** Agents' permission requests waiting for an admin (0 for everyone else). */
  pendingPermissionRequests: number;
  unknownActions: number;
  opsPerMinute: number;
  errorRate: number;
  windowMinutes: number;
  operationsInWindow: number;
};

export type ConsoleUser = { name: string; email: string; role: Role; tenantName: string };

const ROLE_LABELS: Record<Role, string> = { admin: "Admin", support: "Support", member: "Member" };

function Count({ n, testId, what }: { n: number; testId: string; what: string }) {
  if (n <= 0) return null;
  return (
    <span
      className="rounded-full bg-amber-400 px-1.5 text-xs font-semibold text-slate-900"
      data-testid={testId}
    >
      {n}
      <span className="sr-only"> {what}</span>
    </span>
  );
}

export function ConsoleNav({ user, summary }: { user: ConsoleUser; summary: Summary | undefined }) {
  const pathname = usePathname();
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  const items = navItems.filter((i) => i.roles.includes(user.role));

  async function signOut() {
    setSigningOut(true);
    await apiSend("POST", "/api/auth/sign-out").catch(() => undefined);
    router.replace("/sign-in");
    router.refresh();
  }

  return (
    <nav aria-label="Console" className="flex h-full flex-col gap-1 p-3">
      <Link
        href="/"
        className="mb-3 hidden items-center gap-2 px-2 text-lg font-semibold tracking-tight text-white focus-visible:outline-2 focus-visible:outline-sky-400 md:flex"
      >
        <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-sky-400" />
        Signpost
      </Link>
      <search className="mb-3 block px-1">
        <form action="/search">
          <label htmlFor="global-search" className="sr-only">
            Search records, people, agents and actions
          </label>
          <input
            id="global-search"
            name="q"
            type="search"
            maxLength={200}
            placeholder="Search records, people, agents, actions…"
            className="block w-full rounded-md border border-slate-600 bg-slate-800 px-2 py-1.5 text-sm text-white placeholder:text-slate-300 focus:outline-2 focus:outline-sky-400"
          />
        </form>
      </search>
      <ul className="flex flex-col gap-0.5">
        {items.map((item) => {
          const active =
            item.href === "/"
              ? pathname === "/"
              : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? "page" : undefined}
                className={`flex items-center justify-between rounded-md px-2 py-2 text-sm focus-visible:outline-2 focus-visible:outline-sky-400 md:py-1.5 ${
                  active ? "bg-slate-700 text-white" : "text-slate-200 hover:bg-slate-800 hover:text-white"
                }`}
              >
                {item.label}
                {item.href === "/approvals" ? (
                  <Count n={summary?.pendingApprovals ?? 0} testId="pending-count" what="pending" />
                ) : item.href === "/permissions" ? (
                  <Count
                    n={summary?.pendingPermissionRequests ?? 0}
                    testId="pending-requests-count"
                    what="permission requests waiting"
                  />
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="mt-auto border-t border-slate-700 px-2 pt-3 text-xs text-slate-300">
        <p className="truncate text-sm text-slate-100" data-testid="signed-in-user">
          {user.name}
        </p>
        <p className="truncate">{user.email}</p>
        <p className="mt-0.5">
          {ROLE_LABELS[user.role]} · {user.tenantName}
        </p>
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          className="mt-2 rounded px-2 py-1 text-slate-100 ring-1 ring-slate-600 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-sky-400"
        >
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </nav>
  );
}
