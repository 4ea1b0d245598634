"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { ActionListItem } from "@/server/gateway/console/list-actions";
import { apiGet } from "./api-client";
import {
  Badge,
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
];

function ActionTable({ actions, testId }: { actions: ActionListItem[]; testId: string }) {
  return (
    <table
      className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-sm"
      data-testid={testId}
    >
      <TableHead columns={["Action", "Capability", "Status", "Node", "Entity", "Effect", "Updated"]} />
      <tbody>
        {actions.map((a) => (
          <tr key={a.id} className="border-t border-slate-100" data-testid="action-row">
            <td className="px-3 py-2">
              <Link
                className="font-mono text-xs text-sky-700 underline-offset-2 hover:underline"
                href={`/actions/${a.id}`}
              >
                {a.id}
              </Link>
            </td>
            <td className="px-3 py-2">{a.capability}</td>
            <td className="px-3 py-2">
              <Badge value={a.status} />
            </td>
            <td className="px-3 py-2 text-slate-600">
              {a.node} <span className="text-slate-400">v{a.version}</span>
            </td>
            <td className="px-3 py-2 text-slate-600">
              {a.entityId ? `${a.entityType ?? ""} ${a.entityId}` : "—"}
            </td>
            <td className="px-3 py-2">{a.effectStatus ? <Badge value={a.effectStatus} /> : "—"}</td>
            <td className="px-3 py-2 text-xs text-slate-500">
              <Time iso={a.updatedAt} />
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
      className="w-full overflow-hidden rounded-lg border border-amber-300 bg-white text-sm"
      data-testid="recovery-queue"
    >
      <thead className="bg-amber-50 text-left text-xs text-slate-600">
        <tr>
          <th className="px-3 py-2 font-medium">Action</th>
          <th className="px-3 py-2 font-medium">Capability</th>
          <th className="px-3 py-2 font-medium">Effect</th>
          <th className="px-3 py-2 font-medium">Why it is here</th>
          <th className="px-3 py-2 font-medium">Attempts</th>
          <th className="px-3 py-2 font-medium">Updated</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr key={i.action_id} className="border-t border-slate-100">
            <td className="px-3 py-2">
              <Link
                className="font-mono text-xs text-sky-700 underline-offset-2 hover:underline"
                href={`/actions/${i.action_id}`}
              >
                {i.action_id}
              </Link>
            </td>
            <td className="px-3 py-2">{i.capability}</td>
            <td className="px-3 py-2">
              <Badge value={i.effect_status} /> <span className="text-xs text-slate-500">{i.kind}</span>
            </td>
            <td className="px-3 py-2 text-xs text-slate-600">{i.queued_reason}</td>
            <td className="px-3 py-2 tabular-nums">{i.attempts}</td>
            <td className="px-3 py-2 text-xs text-slate-500">
              <Time iso={i.updated_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ActionsView({ initialStatus, canRecover }: { initialStatus: string; canRecover: boolean }) {
  const [status, setStatus] = useState(initialStatus);
  const [capability, setCapability] = useState("");
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (capability) params.set("capability", capability);
  const list = useQuery({
    queryKey: ["actions", status, capability],
    queryFn: () =>
      apiGet<{ actions: ActionListItem[] }>(`/api/console/actions?${params}`).then((r) => r.actions),
  });
  const recovery = useQuery({
    queryKey: ["actions", "recovery-queue"],
    queryFn: () => apiGet<{ items: RecoveryItem[] }>("/api/console/recovery").then((r) => r.items),
    enabled: canRecover,
  });
  return (
    <div>
      <PageHeader
        title="Actions"
        description="Every business action agents started, with its status, capability and effect."
      />
      {canRecover ? (
        <section className="mb-8" aria-labelledby="recovery-heading">
          <h2 id="recovery-heading" className="mb-2 text-sm font-semibold text-slate-700">
            Recovery queue{" "}
            <span className="font-normal text-slate-500">
              — effects whose outcome is unknown: verify, retry with the original key, or mark resolved
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
        className="mb-3 flex flex-wrap gap-3"
        aria-label="Filter actions"
        onSubmit={(e) => e.preventDefault()}
      >
        <div>
          <label htmlFor="status" className={labelClass}>
            Status
          </label>
          <select
            id="status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            className={`${inputClass} mt-1 w-48`}
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
            value={capability}
            onChange={(e) => setCapability(e.target.value.trim())}
            placeholder="e.g. checkout"
            className={`${inputClass} mt-1 w-48`}
          />
        </div>
      </form>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title="No actions yet">Actions appear when an agent starts one.</EmptyState>
      ) : (
        <ActionTable actions={list.data} testId="actions-table" />
      )}
    </div>
  );
}
