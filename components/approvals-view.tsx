"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ApprovalView } from "@/server/gateway/console/list-approvals";
import { apiGet } from "./api-client";
import { ConfirmationSummary } from "./confirmation-summary";
import { Badge, buttonClass, EmptyState, ErrorState, LoadingState, PageHeader, TableHead, Time } from "./ui";

export function ApprovalsView({ initial, scope }: { initial: ApprovalView[]; scope: "tenant" | "mine" }) {
  const pending = useQuery({
    queryKey: ["approvals", "pending"],
    queryFn: () => apiGet<{ approvals: ApprovalView[] }>("/api/console/approvals").then((r) => r.approvals),
    initialData: initial,
  });
  const decided = useQuery({
    queryKey: ["approvals", "decided"],
    queryFn: () =>
      apiGet<{ approvals: ApprovalView[] }>("/api/console/approvals?status=decided").then((r) => r.approvals),
  });
  return (
    <div>
      <PageHeader
        title="Approvals"
        description={
          scope === "tenant"
            ? "Charges, refunds and other side effects agents prepared in this tenant, waiting for a person. Newest first."
            : "Charges, refunds and other side effects your agents prepared, waiting for you. Newest first."
        }
      />
      {pending.error ? <ErrorState error={pending.error} onRetry={() => pending.refetch()} /> : null}
      {pending.data.length === 0 ? (
        <EmptyState title="Nothing waits for approval">
          When an agent prepares a payment or refund, it appears here.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Pending approvals">
          {pending.data.map((a) => (
            <li
              key={a.id}
              className="flex flex-col gap-3"
              data-testid="approval-item"
              data-action-id={a.actionId}
            >
              <ConfirmationSummary
                capability={a.capability}
                actionId={a.actionId}
                version={a.version}
                summary={a.summary}
              />
              <div className="flex items-center justify-between text-xs text-slate-500">
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
        <table className="w-full overflow-hidden rounded-lg border border-slate-200 bg-white text-sm">
          <TableHead columns={["Action", "Capability", "Decision", "By", "When"]} />
          <tbody>
            {decided.data.slice(0, 20).map((a) => (
              <tr key={a.id} className="border-t border-slate-100">
                <td className="px-3 py-2">
                  <Link
                    className="text-sky-700 underline-offset-2 hover:underline"
                    href={`/actions/${a.actionId}`}
                  >
                    {a.actionId}
                  </Link>
                </td>
                <td className="px-3 py-2">{a.capability}</td>
                <td className="px-3 py-2">
                  <Badge value={a.status} />
                </td>
                <td className="px-3 py-2" data-testid="decided-by">
                  {a.decidedBy ?? (a.status === "expired" ? "nobody in time" : "—")}
                </td>
                <td className="px-3 py-2">
                  <Time iso={a.decidedAt} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
