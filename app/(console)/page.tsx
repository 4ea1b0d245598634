import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { OverviewView } from "@/components/overview-view";
import { getDb } from "@/server/db/client";
import { overviewStats } from "@/server/gateway/console/overview-stats";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { ctx } = await requirePageAccess("/", pageRoles.overview);
  const stats = await overviewStats(getDb(), ctx);
  return <OverviewView initial={stats} role={ctx.role} name={ctx.name} />;
}
