import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { MonitorView } from "@/components/monitor-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Live monitor" };

export default async function MonitorPage() {
  await requirePageAccess("/monitor", pageRoles.monitor);
  return <MonitorView />;
}
