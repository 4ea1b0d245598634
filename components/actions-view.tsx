"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { formatMoney } from "@/server/connectors/sdk/render-decision-summary";
import type { ActionListItem, ActionPage } from "@/server/gateway/console/list-actions";
import { apiGet } from "./api-client";
import {
  Badge,
  buttonClass,
  EmptyState,
  ErrorState,
  inputClass,
  LoadingState,
  labelClass,
  PageHeader,
  TableHead,
  Time,
} from "./ui";

const STATUSES = [
  "open",
  "awaiting_approval",
  "executing",
  "applied",
  "completed",
  "failed",
  "unknown",
  "rejected",
  "cancelled",
  "refused",
];

export type ActionFilter = {
  status: string;
  capability: string;
  user: string;
  from: string;
  to: string;
  page: number;
};

function ActionTable({ actions, testId }: { actions: ActionListItem[]; testId: string }) {
  return (
    <table
      className="stack-on-phone w-full rounded-lg border border-slate-200 bg-white text-sm"
      data-testid={testId}
    >
      <TableHead columns={["Action", "Amount", "For", "Agent", "Status", "Started"]} />
      <tbody>
        {actions.map((a) => (
          <tr key={a.id} className="border-t border-slate-200 align-top" data-testid="action-row">
            <td className="px-3 py-2" data-label="Action">
              <span className="block font-medium">{a.title}</span>
              <Link
                className="font-mono text-xs text-sky-800 underline-offset-2 hover:underline"
                href={`/actions/${a.id}`}
              >
                {a.id}
              </Link>
            </td>
            <td className="px-3 py-2 tabular-nums" data-label="Amount">
              {a.amount === null ? "—" : formatMoney(a.amount, a.currency ?? "USD")}
            </td>
            <td className="px-3 py-2" data-label="For">
              {a.userName ?? "—"}
            </td>
            <td className="px-3 py-2" data-label="Agent">
              {a.agentName ?? "—"}
            </td>
            <td className="px-3 py-2" data-label="Status">
              <Badge value={a.status} />
              {a.effectStatus && a.effectStatus !== "applied" ? (
                <span className="ml-1 text-xs text-slate-600">effect {a.effectStatus}</span>
              ) : null}
            </td>
            <td className="px-3 py-2 text-xs text-slate-600" data-label="Started">
              <Time iso={a.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type RecoveryItem = {
  action_id: string;
  capability: string;
  /** The capability's declared title. */
  title: string;
  effect_status: string;
  action_key: string;
  kind: string;
  attempts: number;
  queued_reason: string;
  updated_at: string;
};

function RecoveryTable({ items }: { items: RecoveryItem[] }) {
  return (
    <table
      className="stack-on-phone w-full rounded-lg border border-amber-300 bg-white text-sm"
      data-testid="recovery-queue"
    >
      <TableHead columns={["Action", "What", "Effect", "Why it is here", "Attempts", "Updated"]} />
      <tbody>
        {items.map((i) => (
          <tr key={i.action_id} className="border-t border-slate-200 align-top">
            <td className="px-3 py-2" data-label="Action">
              <Link
                className="font-mono text-xs text-sky-800 underline-offset-2 hover:underline"
                href={`/actions/${i.action_id}`}
              >
                {i.action_id}
              </Link>
            </td>
            <td className="px-3 py-2" data-label="What">
              {i.title}
            </td>
            <td className="px-3 py-2" data-label="Effect">
              <Badge value={i.effect_status} />
            </td>
            <td className="px-3 py-2 text-xs text-slate-700" data-label="Why it is here">
              {i.queued_reason}
            </td>
            <td className="px-3 py-2 tabular-nums" data-label="Attempts">
              {i.attempts}
            </td>
            <td className="px-3 py-2 text-xs text-slate-600" data-label="Updated">
              <Time iso={i.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function toQuery(f: ActionFilter): URLSearchParams {
  const sp = new URLSearchParams();
  if (f.status) sp.set("status", f.status);
  if (f.capability) sp.set("capability", f.capability);
  if (f.user) sp.set("user", f.user);
  if (f.from) sp.set("from", f.from);
  if (f.to) sp.set("to", f.to);
  if (f.page > 1) sp.set("page", String(f.page));
  return sp;
}

/** `to` is a day: everything started before the end of it. */
function apiQuery(f: ActionFilter): string {
  const sp = toQuery(f);
  if (f.to) sp.set("to", new Date(new Date(f.to).getTime() + 86_400_000).toISOString().slice(0, 10));
  sp.set("pageSize", "25");
  return sp.toString();
}

export function ActionsView({ initial, canRecover }: { initial: ActionFilter; canRecover: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const [filter, setFilterState] = useState<ActionFilter>(initial);
  // Filters live in the address: a filtered list can be shared and survives a reload.
  const setFilter = (next: ActionFilter) => {
    setFilterState(next);
    const qs = toQuery(next).toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const list = useQuery({
    queryKey: ["actions", "list", filter],
    queryFn: () => apiGet<ActionPage>(`/api/console/actions?${apiQuery(filter)}`),
    placeholderData: keepPreviousData,
  });
  const recovery = useQuery({
    queryKey: ["actions", "recovery-queue"],
    queryFn: () => apiGet<{ items: RecoveryItem[] }>("/api/console/recovery").then((r) => r.items),
    enabled: canRecover,
  });
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1;
  return (
    <div>
      <PageHeader
        title="Actions"
        description="Every business action agents started: what, how much, for whom, by which agent, and where it stands."
      />
      {canRecover ? (
        <section className="mb-8" aria-labelledby="recovery-heading">
          <h2 id="recovery-heading" className="mb-2 text-sm font-semibold text-slate-700">
            Recovery queue{" "}
            <span className="font-normal text-slate-600">
              — effects whose outcome is unknown: verify first, then retry with the original key or mark
              resolved
            </span>
          </h2>
          {recovery.isPending ? (
            <LoadingState />
          ) : recovery.error ? (
            <ErrorState error={recovery.error} onRetry={() => recovery.refetch()} />
          ) : recovery.data.length === 0 ? (
            <EmptyState title="Nothing to recover">No action is in unknown.</EmptyState>
          ) : (
            <RecoveryTable items={recovery.data} />
          )}
        </section>
      ) : null}
      <form
        className="mb-3 grid grid-cols-2 gap-3 sm:flex sm:flex-wrap"
        aria-label="Filter actions"
        onSubmit={(e) => e.preventDefault()}
      >
        <div>
          <label htmlFor="status" className={labelClass}>
            Status
          </label>
          <select
            id="status"
            value={filter.status}
            onChange={(e) => setFilter({ ...filter, status: e.target.value, page: 1 })}
            className={`${inputClass} mt-1 sm:w-44`}
          >
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="capability" className={labelClass}>
            Capability
          </label>
          <input
            id="capability"
            value={filter.capability}
            onChange={(e) => setFilter({ ...filter, capability: e.target.value.trim(), page: 1 })}
            placeholder="a capability id"
            className={`${inputClass} mt-1 sm:w-44`}
          />
        </div>
        <div>
          <label htmlFor="from" className={labelClass}>
            Started from
          </label>
          <input
            id="from"
            type="date"
            value={filter.from}
            onChange={(e) => setFilter({ ...filter, from: e.target.value, page: 1 })}
            className={`${inputClass} mt-1 sm:w-44`}
          />
        </div>
        <div>
          <label htmlFor="to" className={labelClass}>
            Started until
          </label>
          <input
            id="to"
            type="date"
            value={filter.to}
            onChange={(e) => setFilter({ ...filter, to: e.target.value, page: 1 })}
            className={`${inputClass} mt-1 sm:w-44`}
          />
        </div>
      </form>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.actions.length === 0 ? (
        <EmptyState title="No actions match">Actions appear when an agent starts one.</EmptyState>
      ) : (
        <>
          <ActionTable actions={list.data.actions} testId="actions-table" />
          <nav
            aria-label="Pages"
            className="mt-3 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700"
          >
            <span data-testid="actions-total">
              {list.data.total} actions · page {list.data.page} of {pages}
            </span>
            <span className="flex gap-2">
              <button
                type="button"
                className={buttonClass("secondary", "sm")}
                disabled={filter.page <= 1}
                onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
              >
                Newer
              </button>
              <button
                type="button"
                className={buttonClass("secondary", "sm")}
                disabled={filter.page >= pages}
                onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
              >
                Older
              </button>
            </span>
          </nav>
        </>
      )}
    </div>
  );
}
