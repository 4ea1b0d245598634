import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ApprovalsView } from "@/components/approvals-view";
import { Forbidden } from "@/components/ui";
import { getDb } from "@/server/db/client";
import { listApprovals } from "@/server/gateway/console/list-approvals";

export const dynamic = "force-dynamic";

export default async function ApprovalsPage() {
  const { ctx, allowed } = await requirePageAccess("/approvals", pageRoles.approvals);
  if (!allowed)
    return <Forbidden what="Approvals are decided by the person an action is for, or by an admin." />;
  const approvals = await listApprovals(getDb(), ctx, { status: "pending" });
  return <ApprovalsView initial={approvals} scope={ctx.role === "admin" ? "tenant" : "mine"} />;
}
