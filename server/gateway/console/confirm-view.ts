import { capabilityRegistry, capabilityTitle } from "../../connectors/connector-registry";
import { approversOf } from "../../connectors/sdk/define-capability";
import type { Db } from "../../db/client";
import { parseActionState } from "../../engine/action-state";
import { approvalExpiresAt, effectiveApprovalStatus } from "../../engine/approval-ledger";
import { describeApprovers, mayDecide } from "../approvals";
import type { ConsoleContext } from "../console-session";
import { personContext } from "../trusted-context";
import { actionScope } from "./list-actions";

/** What the confirm screen shows and follows live: the action now, its newest approval, who may decide. */
export type ConfirmView = {
  actionId: string;
  capability: string;
  /** The capability's declared title. */
  title: string;
  actionStatus: string;
  /** What the system answered when it last refused or failed the action, if it did (state.last_error). */
  lastError: { code: string; message: string } | null;
  actionVersion: number;
  node: string;
  /** The agent that prepared it, by name, and the person it acts for. */
  agentName: string | null;
  forName: string | null;
  approval: {
    id: string;
    version: number;
    /** As it stands now: pending | approved | rejected | voided | expired. */
    status: string;
    summary: unknown;
    requestedAt: string;
    expiresAt: string;
    decidedBy: string | null;
    decidedAt: string | null;
    decidedVia: string | null;
    reason: string | null;
  } | null;
  canDecide: boolean;
  approvers: string;
};

/** The confirm screen's data for one action; null when it does not exist for this person. */
export async function confirmView(
  db: Db,
  ctx: ConsoleContext,
  actionId: string,
): Promise<ConfirmView | null> {
  const action = await db.action.findFirst({ where: { id: actionId, ...actionScope(ctx) } });
  if (!action) return null;
  const approval = await db.approval.findFirst({
    where: { actionId, tenantId: ctx.tenantId },
    orderBy: { version: "desc" },
  });
  const [agent, people] = await Promise.all([
    action.agentId
      ? db.agent.findFirst({ where: { id: action.agentId, tenantId: ctx.tenantId }, select: { name: true } })
      : null,
    db.user.findMany({
      where: {
        tenantId: ctx.tenantId,
        id: { in: [action.userId, ...(approval?.decidedById ? [approval.decidedById] : [])] },
      },
      select: { id: true, name: true, role: true },
    }),
  ]);
  const person = (id: string | null | undefined) => people.find((p) => p.id === id);
  const rule = approversOf(capabilityRegistry().get(action.capability), approval?.summary);
  const decider = person(approval?.decidedById);
  return {
    actionId: action.id,
    capability: action.capability,
    title: capabilityTitle(action.capability),
    actionStatus: action.status,
    lastError: parseActionState(action.state).last_error,
    actionVersion: action.version,
    node: action.node,
    agentName: agent?.name ?? null,
    forName: person(action.userId)?.name ?? null,
    approval: approval
      ? {
          id: approval.id,
          version: approval.version,
          status: effectiveApprovalStatus(approval),
          summary: approval.summary,
          requestedAt: approval.createdAt.toISOString(),
          expiresAt: approvalExpiresAt(approval).toISOString(),
          decidedBy: decider ? `${decider.name} (${decider.role})` : null,
          decidedAt: approval.decidedAt?.toISOString() ?? null,
          decidedVia: approval.decidedVia,
          reason: approval.reason,
        }
      : null,
    canDecide: mayDecide(personContext(ctx, "console"), action, rule),
    approvers: describeApprovers(rule, person(action.userId)?.name ?? "the person it is for"),
  };
}
