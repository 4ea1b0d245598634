import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { AgentsView } from "@/components/agents-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  await requirePageAccess("/agents", pageRoles.agents);
  return <AgentsView />;
}
