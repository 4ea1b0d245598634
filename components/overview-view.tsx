"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiGet } from "./api-client";
import type { Summary } from "./console-nav";
import { ErrorState, PageHeader } from "./ui";

function Stat({
  label,
  value,
  href,
  hint,
  testId,
}: {
  label: string;
  value: string;
  href?: string;
  hint?: string;
  testId: string;
}) {
  const body = (
    <>
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
      {hint ? <p className="mt-1 text-xs text-slate-500">{hint}</p> : null}
    </>
  );
  const cls = "block rounded-lg border border-slate-200 bg-white p-4 shadow-sm";
  return href ? (
    <Link
      href={href}
      className={`${cls} hover:border-slate-400 focus-visible:outline-2 focus-visible:outline-sky-600`}
    >
      {body}
    </Link>
  ) : (
    <div className={cls}>{body}</div>
  );
}

export function OverviewView({ initial, role, name }: { initial: Summary; role: string; name: string }) {
  const q = useQuery({
    queryKey: ["summary"],
    queryFn: () => apiGet<Summary>("/api/console/summary"),
    initialData: initial,
    refetchInterval: 15_000,
  });
  const s = q.data;
  return (
    <div>
      <PageHeader
        title={`Hello, ${name}`}
        description="What agents are doing now, and what waits for a person."
      />
      {q.error ? <ErrorState error={q.error} onRetry={() => q.refetch()} /> : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Pending approvals"
          value={String(s.pendingApprovals)}
          href={role === "support" ? undefined : "/approvals"}
          hint={role === "member" ? "waiting for you" : "in this tenant"}
          testId="stat-pending"
        />
        <Stat
          label="Actions in unknown"
          value={String(s.unknownActions)}
          href="/actions?status=unknown"
          hint="need verify or recovery"
          testId="stat-unknown"
        />
        <Stat
          label="Operations / min"
          value={String(s.opsPerMinute)}
          hint={`${s.operationsInWindow} agent calls in ${s.windowMinutes} min`}
          testId="stat-ops"
        />
        <Stat
          label="Error rate"
          value={`${(s.errorRate * 100).toFixed(1)} %`}
          hint="unavailable or unknown outcomes"
          testId="stat-errors"
        />
      </div>
    </div>
  );
}
