import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ConfirmScreen } from "@/components/confirm-screen";
import { getDb } from "@/server/db/client";
import { confirmView } from "@/server/gateway/console/confirm-view";

export const dynamic = "force-dynamic";

export async function generateMetadata({
  params,
}: {
  params: Promise<{ actionId: string }>;
}): Promise<Metadata> {
  return { title: `Confirm ${(await params).actionId}` };
}

/**
 * The confirmation screen: server-rendered with the action's newest approval (the summary is the
 * same component the MCP Apps resource renders), then followed live in the browser.
 */
export default async function ConfirmPage({ params }: { params: Promise<{ actionId: string }> }) {
  const { actionId } = await params;
  const { ctx } = await requirePageAccess(`/confirm/${encodeURIComponent(actionId)}`, pageRoles.confirm);
  const view = await confirmView(getDb(), ctx, actionId);
  if (!view) notFound();
  return <ConfirmScreen initial={view} audience={ctx.role === "member" ? "member" : "staff"} />;
}
