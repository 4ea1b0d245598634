import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ConfigView } from "@/components/config-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connectors" };

export default async function ConfigPage() {
  await requirePageAccess("/config", pageRoles.config);
  return <ConfigView />;
}
