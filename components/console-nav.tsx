"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { apiGet, apiSend } from "./api-client";

type Role = "admin" | "support" | "member";
type NavItem = { href: string; label: string; roles: Role[] };

export const navItems: NavItem[] = [
  { href: "/", label: "Overview", roles: ["admin", "support", "member"] },
  { href: "/approvals", label: "Approvals", roles: ["admin", "member"] },
  { href: "/monitor", label: "Live monitor", roles: ["admin", "support"] },
  { href: "/actions", label: "Actions", roles: ["admin", "support", "member"] },
  { href: "/permissions", label: "Permissions", roles: ["admin"] },
  { href: "/agents", label: "Agents", roles: ["admin"] },
  { href: "/config", label: "Connectors", roles: ["admin"] },
  { href: "/catalog", label: "Catalog", roles: ["admin", "support", "member"] },
];

export type Summary = {
  pendingApprovals: number;
  unknownActions: number;
  opsPerMinute: number;
  errorRate: number;
  windowMinutes: number;
  operationsInWindow: number;
};

export function ConsoleNav({
  user,
}: {
  user: { name: string; email: string; role: Role; tenantName: string };
}) {
  const pathname = usePathname();
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  const summary = useQuery({ queryKey: ["summary"], queryFn: () => apiGet<Summary>("/api/console/summary") });
  const pending = summary.data?.pendingApprovals ?? 0;
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
        className="mb-4 flex items-center gap-2 px-2 text-lg font-semibold tracking-tight text-white focus-visible:outline-2 focus-visible:outline-sky-400"
      >
        <span aria-hidden="true" className="inline-block h-5 w-5 rounded bg-sky-400" />
        Signpost
      </Link>
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
                className={`flex items-center justify-between rounded-md px-2 py-1.5 text-sm focus-visible:outline-2 focus-visible:outline-sky-400 ${
                  active ? "bg-slate-700 text-white" : "text-slate-300 hover:bg-slate-800 hover:text-white"
                }`}
              >
                {item.label}
                {item.href === "/approvals" && pending > 0 ? (
                  <span
                    className="rounded-full bg-amber-400 px-1.5 text-xs font-semibold text-slate-900"
                    data-testid="pending-count"
                  >
                    {pending}
                    <span className="sr-only"> pending</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="mt-auto border-t border-slate-700 px-2 pt-3 text-xs text-slate-400">
        <p className="truncate text-sm text-slate-200" data-testid="signed-in-user">
          {user.name}
        </p>
        <p className="truncate">{user.email}</p>
        <p className="mt-0.5">
          {user.role} · {user.tenantName}
        </p>
        <button
          type="button"
          onClick={signOut}
          disabled={signingOut}
          className="mt-2 rounded px-2 py-1 text-slate-200 ring-1 ring-slate-600 hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-sky-400"
        >
          {signingOut ? "Signing out…" : "Sign out"}
        </button>
      </div>
    </nav>
  );
}
