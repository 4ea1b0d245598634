import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ActionDetailView } from "@/components/action-detail-view";
import { getDb } from "@/server/db/client";
import { getActionDetail } from "@/server/gateway/console/list-actions";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Action ${(await params).id}` };
}

export default async function ActionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx } = await requirePageAccess(`/actions/${encodeURIComponent(id)}`, pageRoles.actions);
  const action = await getActionDetail(getDb(), ctx, id);
  // Another tenant's action, or another person's for a member, does not exist here.
  if (!action) notFound();
  return (
    <ActionDetailView
      initial={action}
      canRecover={ctx.role !== "member"}
      canDecide={ctx.role !== "support"}
    />
  );
}
