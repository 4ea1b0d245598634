"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { decisionSentence } from "@/server/engine/decision-sentence";
import type { ApprovalView } from "@/server/gateway/console/list-approvals";
import { apiGet } from "./api-client";
import { approvalStatusLabel, ConfirmationSummary } from "./confirmation-summary";
import { buttonClass, EmptyState, ErrorState, LoadingState, PageHeader, TableHead, Time } from "./ui";

export function ApprovalsView({ initial, scope }: { initial: ApprovalView[]; scope: "tenant" | "mine" }) {
  const pending = useQuery({
    queryKey: ["approvals", "pending"],
    queryFn: () => apiGet<{ approvals: ApprovalView[] }>("/api/console/approvals").then((r) => r.approvals),
    initialData: initial,
  });
  const [page, setPage] = useState(1);
  const decided = useQuery({
    queryKey: ["approvals", "decided", page],
    queryFn: () =>
      apiGet<{ approvals: ApprovalView[] }>(`/api/console/approvals?status=decided&page=${page}`).then(
        (r) => r.approvals,
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <div>
      <PageHeader
        title="Approvals"
        description={
          scope === "tenant"
            ? "Changes agents prepared in this tenant (money moved, records changed), waiting for a person. Newest first."
            : "Changes your agents prepared (money moved, records changed), waiting for you. Newest first."
        }
      />
      {pending.error ? <ErrorState error={pending.error} onRetry={() => pending.refetch()} /> : null}
      {pending.data.length === 0 ? (
        <EmptyState title="Nothing waits for approval">
          When an agent prepares a change that needs your approval, it appears here.
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2" aria-label="Pending approvals">
          {pending.data.map((a) => (
            <li
              key={a.id}
              className="flex flex-col gap-3"
              data-testid="approval-item"
              data-action-id={a.actionId}
            >
              <ConfirmationSummary
                capability={a.capability}
                title={a.title}
                actionId={a.actionId}
                version={a.version}
                summary={a.summary}
                request={{
                  requestedAt: a.createdAt,
                  expiresAt: a.expiresAt,
                  forName: scope === "tenant" ? a.userName : null,
                }}
              />
              <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
                <span>
                  requested <Time iso={a.createdAt} />
                  {scope === "tenant" && a.userName ? ` · for ${a.userName}` : ""}
                  {" · valid until "}
                  <Time iso={a.expiresAt} />
                  {a.actionVersion !== a.version ? " · the action changed since" : ""}
                  {a.canDecide ? "" : ` · waits for ${a.approvers}`}
                </span>
                <Link
                  href={`/confirm/${a.actionId}`}
                  className={buttonClass(a.canDecide ? "primary" : "secondary", "sm")}
                >
                  {a.canDecide ? "Review and decide" : "View"}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h2 className="mt-10 mb-3 text-sm font-semibold text-slate-700">Recently decided</h2>
      {decided.isPending ? (
        <LoadingState />
      ) : decided.error ? (
        <ErrorState error={decided.error} onRetry={() => decided.refetch()} />
      ) : decided.data.length === 0 ? (
        <EmptyState title="No decisions yet" />
      ) : (
        <>
          <table
            className="stack-on-phone w-full rounded-lg border border-slate-200 bg-white text-sm"
            data-testid="decided-table"
          >
            <TableHead columns={["What", "Decision", "By", "When", "Action"]} />
            <tbody>
              {decided.data.map((a) => (
                <tr key={a.id} className="border-t border-slate-200 align-top">
                  <td className="px-3 py-2" data-label="What">
                    {decisionSentence(a.summary) ?? a.title}
                  </td>
                  <td className="px-3 py-2" data-label="Decision">
                    {approvalStatusLabel(a.status)}
                    {a.reason ? <span className="block text-xs text-slate-600">“{a.reason}”</span> : null}
                  </td>
                  <td className="px-3 py-2" data-label="By" data-testid="decided-by">
                    {a.decidedBy ?? (a.status === "expired" ? "nobody in time" : "—")}
                  </td>
                  <td className="px-3 py-2 text-xs" data-label="When">
                    <Time iso={a.decidedAt ?? a.expiresAt} />
                  </td>
                  <td className="px-3 py-2" data-label="Action">
                    <Link
                      className="font-mono text-xs text-sky-800 underline-offset-2 hover:underline"
                      href={`/actions/${a.actionId}`}
                    >
                      {a.actionId}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Decided pages" className="mt-2 flex gap-2">
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              disabled={page <= 1}
              onClick={() => setPage(page - 1)}
            >
              Newer
            </button>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              disabled={decided.data.length < 20}
              onClick={() => setPage(page + 1)}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
