import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { PermissionsView } from "@/components/permissions/permissions-view";

import { servedVocabulary } from "@/server/gateway/permission-pattern";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Permissions" };

export default async function PermissionsPage() {
  await requirePageAccess("/permissions", pageRoles.permissions);
  const { schemes, capabilityIds } = servedVocabulary();
  return <PermissionsView grammar={{ schemes: [...schemes], capabilities: [...capabilityIds] }} />;
}
