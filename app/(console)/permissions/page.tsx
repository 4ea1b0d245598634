import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { PermissionsView } from "@/components/permissions-view";
import { Forbidden } from "@/components/ui";
import { servedVocabulary } from "@/server/gateway/permission-pattern";

export const dynamic = "force-dynamic";

export default async function PermissionsPage() {
  const { allowed } = await requirePageAccess("/permissions", pageRoles.permissions);
  if (!allowed) return <Forbidden what="Permissions are managed by admins." />;
  const { schemes, capabilityIds } = servedVocabulary();
  return <PermissionsView grammar={{ schemes: [...schemes], capabilities: [...capabilityIds] }} />;
}
