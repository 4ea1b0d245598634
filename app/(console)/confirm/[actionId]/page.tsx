import Link from "next/link";
import { notFound } from "next/navigation";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ConfirmDecision } from "@/components/confirm-decision";
import { ConfirmationSummary } from "@/components/confirmation-summary";
import { Forbidden, PageHeader } from "@/components/ui";
import { capabilityRegistry } from "@/server/connectors/connector-catalog";
import { getDb } from "@/server/db/client";
import { approvalExpiresAt, effectiveApprovalStatus } from "@/server/engine/approval-ledger";
import { approversOf, describeApprovers, mayDecide } from "@/server/gateway/approvals";
import { consolePerson } from "@/server/gateway/console/console-gateway";
import { actionScope } from "@/server/gateway/console/list-actions";

export const dynamic = "force-dynamic";

/**
 * The confirmation screen, server-rendered: the summary bound to the action's version (the same
 * component the MCP Apps resource renders), then Approve / Reject for the person it is for.
 */
export default async function ConfirmPage({ params }: { params: Promise<{ actionId: string }> }) {
  const { actionId } = await params;
  const { ctx, allowed } = await requirePageAccess(
    `/confirm/${encodeURIComponent(actionId)}`,
    pageRoles.confirm,
  );
  if (!allowed)
    return (
      <Forbidden what="Only the person an action is for (or whoever its policy names) can approve or reject it." />
    );
  const db = getDb();
  const action = await db.action.findFirst({ where: { id: actionId, ...actionScope(ctx) } });
  if (!action) notFound();
  const approval = await db.approval.findFirst({
    where: { actionId, tenantId: ctx.tenantId },
    orderBy: { version: "desc" },
  });
  const stale = Boolean(approval && (approval.version !== action.version || approval.status === "voided"));
  const status = approval ? effectiveApprovalStatus(approval) : null;
  const rule = approversOf(capabilityRegistry().get(action.capability), approval?.summary);
  const people = await db.user.findMany({
    where: { tenantId: ctx.tenantId, id: { in: [action.userId, approval?.decidedById ?? action.userId] } },
    select: { id: true, name: true, role: true },
  });
  const nameOf = (id: string | null | undefined) => people.find((p) => p.id === id)?.name ?? null;
  const decider = approval?.decidedById ? people.find((p) => p.id === approval.decidedById) : undefined;
  return (
    <div className="max-w-2xl">
      <PageHeader
        title="Confirm what the agent prepared"
        description="Nothing happens until you approve. Your decision applies to exactly this version."
      />
      {!approval ? (
        <div role="status" className="rounded-lg border border-slate-200 bg-white p-5 text-sm">
          This action has not asked for approval (it is <strong>{action.status}</strong>, at {action.node}).{" "}
          <Link className="text-sky-700 underline" href={`/actions/${action.id}`}>
            Open the action
          </Link>
        </div>
      ) : (
        <div className="space-y-4">
          <ConfirmationSummary
            capability={action.capability}
            actionId={action.id}
            version={approval.version}
            summary={approval.summary}
            status={status ?? approval.status}
          />
          <ConfirmDecision
            // A new version is a new decision: reset the form's state when the action moved on.
            key={`${approval.version}:${action.version}`}
            actionId={action.id}
            version={approval.version}
            status={status ?? approval.status}
            stale={stale}
            currentVersion={action.version}
            decidedVia={approval.decidedVia}
            decidedBy={decider ? `${decider.name} (${decider.role})` : null}
            decidedAt={approval.decidedAt?.toISOString() ?? null}
            expiresAt={approvalExpiresAt(approval).toISOString()}
            canDecide={mayDecide(consolePerson(ctx), action, rule)}
            approvers={describeApprovers(rule, nameOf(action.userId) ?? "the person it is for")}
            reason={approval.reason}
          />
        </div>
      )}
    </div>
  );
}
