import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ApprovalsView } from "@/components/approvals-view";

import { getDb } from "@/server/db/client";
import { listApprovals } from "@/server/gateway/console/list-approvals";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Approvals" };

export default async function ApprovalsPage() {
  const { ctx } = await requirePageAccess("/approvals", pageRoles.approvals);
  const approvals = await listApprovals(getDb(), ctx, { status: "pending" });
  return <ApprovalsView initial={approvals} scope={ctx.role === "admin" ? "tenant" : "mine"} />;
}
