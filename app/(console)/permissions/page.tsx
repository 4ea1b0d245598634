import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { PermissionsView } from "@/components/permissions-view";
import { Forbidden } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function PermissionsPage() {
  const { allowed } = await requirePageAccess("/permissions", pageRoles.permissions);
  if (!allowed) return <Forbidden what="Permissions are managed by admins." />;
  return <PermissionsView />;
}
