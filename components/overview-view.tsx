"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ActionListItem } from "@/server/gateway/console/list-actions";
import type { AuditEventView } from "@/server/gateway/console/list-audit-events";
import { apiGet } from "./api-client";
import type { Summary } from "./console-nav";
import { Badge, Card, EmptyState, ErrorState, LoadingState, PageHeader, Time } from "./ui";

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
      <p className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </p>
      {hint ? <p className="mt-1 text-xs text-slate-600">{hint}</p> : null}
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

/** Latest agent operations (support and admins) — the monitor's first rows, without the stream. */
function RecentOperations() {
  const q = useQuery({
    queryKey: ["summary", "recent-operations"],
    queryFn: () => apiGet<{ events: AuditEventView[] }>("/api/console/audit?limit=8").then((r) => r.events),
  });
  if (q.isPending) return <LoadingState />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  if (q.data.length === 0)
    return (
      <EmptyState title="No operations yet">Agent calls appear here and in the live monitor.</EmptyState>
    );
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {q.data.map((e) => (
        <li key={e.seq} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 py-1.5">
          <span className="min-w-0 truncate">
            <span className="font-medium">{e.operation}</span>{" "}
            <span className="text-slate-600">{e.capability ?? e.target ?? ""}</span>
          </span>
          <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600">
            <Badge value={e.outcome} /> <Time iso={e.createdAt} />
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The person's (or tenant's) latest actions. */
function RecentActions() {
  const q = useQuery({
    queryKey: ["actions", "recent"],
    queryFn: () =>
      apiGet<{ actions: ActionListItem[] }>("/api/console/actions?pageSize=8").then((r) =>
        r.actions.slice(0, 8),
      ),
  });
  if (q.isPending) return <LoadingState />;
  if (q.error) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
  if (q.data.length === 0)
    return <EmptyState title="No actions yet">Actions appear when an agent starts one.</EmptyState>;
  return (
    <ul className="divide-y divide-slate-100 text-sm">
      {q.data.map((a) => (
        <li key={a.id} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1 py-1.5">
          <Link
            href={`/actions/${a.id}`}
            className="min-w-0 truncate text-sky-800 underline-offset-2 hover:underline"
          >
            {a.capability} <span className="font-mono text-xs text-slate-600">{a.id}</span>
          </Link>
          <span className="flex shrink-0 items-center gap-2 text-xs text-slate-600">
            <Badge value={a.status} /> <Time iso={a.updatedAt} />
          </span>
        </li>
      ))}
    </ul>
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
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        {role === "member" ? null : (
          <Card
            title={
              <Link href="/monitor" className="hover:underline">
                Latest operations
              </Link>
            }
          >
            <RecentOperations />
          </Card>
        )}
        <Card
          title={
            <Link href="/actions" className="hover:underline">
              Latest actions
            </Link>
          }
        >
          <RecentActions />
        </Card>
      </div>
    </div>
  );
}
