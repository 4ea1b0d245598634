import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ActionsView } from "@/components/actions-view";
import { Forbidden } from "@/components/ui";

export const dynamic = "force-dynamic";

export default async function ActionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ctx, allowed } = await requirePageAccess("/actions", pageRoles.actions);
  if (!allowed) return <Forbidden what="Actions are not available for your role." />;
  const status = (await searchParams).status;
  return (
    <ActionsView
      initialStatus={typeof status === "string" ? status : ""}
      canRecover={ctx.role !== "member"}
    />
  );
}
