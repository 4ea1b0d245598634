import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { actionScope } from "./list-actions";
import { countPendingApprovals } from "./list-approvals";
import { auditScope } from "./list-audit-events";

export type OverviewStats = {
  pendingApprovals: number;
  /** Agents' permission requests waiting for an admin; 0 for everyone else (they cannot answer them). */
  pendingPermissionRequests: number;
  unknownActions: number;
  opsPerMinute: number;
  errorRate: number;
  windowMinutes: number;
  operationsInWindow: number;
};

// Outcomes that mean the call did not get through for reasons other than the agent's input.
const ERROR_OUTCOMES = ["temporarily_unavailable", "unknown"];
const WINDOW_MINUTES = 15;

/** The home page's numbers, scoped like everything else (members: their own). */
export async function overviewStats(db: Db, ctx: ConsoleContext): Promise<OverviewStats> {
  const since = new Date(Date.now() - WINDOW_MINUTES * 60_000);
  const agentOps = { ...auditScope(ctx), createdAt: { gte: since }, face: { not: "console" } };
  const [pendingApprovals, pendingPermissionRequests, unknownActions, operationsInWindow, errors] =
    await Promise.all([
      countPendingApprovals(db, ctx),
      ctx.role === "admin"
        ? db.permissionRequest.count({ where: { tenantId: ctx.tenantId, status: "pending" } })
        : Promise.resolve(0),
      db.action.count({ where: { ...actionScope(ctx), status: "unknown" } }),
      db.auditEvent.count({ where: agentOps }),
      db.auditEvent.count({ where: { ...agentOps, outcome: { in: ERROR_OUTCOMES } } }),
    ]);
  return {
    pendingApprovals,
    pendingPermissionRequests,
    unknownActions,
    operationsInWindow,
    windowMinutes: WINDOW_MINUTES,
    opsPerMinute: Math.round((operationsInWindow / WINDOW_MINUTES) * 10) / 10,
    errorRate: operationsInWindow === 0 ? 0 : errors / operationsInWindow,
  };
}
