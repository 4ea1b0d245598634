import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ConfigView } from "@/components/config-view";
import { Forbidden } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function ConfigPage() {
  const { allowed } = await requirePageAccess("/config", pageRoles.config);
  if (!allowed) return <Forbidden what="Connector settings and secrets are managed by admins." />;
  return <ConfigView />;
}
