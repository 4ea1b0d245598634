import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { MonitorView } from "@/components/monitor-view";
import { Forbidden } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function MonitorPage() {
  const { allowed } = await requirePageAccess("/monitor", pageRoles.monitor);
  if (!allowed) return <Forbidden what="The live monitor is for support and admins." />;
  return <MonitorView />;
}
