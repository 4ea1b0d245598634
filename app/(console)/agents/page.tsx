import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { AgentsView } from "@/components/agents-view";
import { Forbidden } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  const { allowed } = await requirePageAccess("/agents", pageRoles.agents);
  if (!allowed) return <Forbidden what="Agents and their keys are managed by admins." />;
  return <AgentsView />;
}
