import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ActionsView } from "@/components/actions-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Actions" };

const one = (v: string | string[] | undefined) => (typeof v === "string" ? v.slice(0, 80) : "");
const day = (v: string | string[] | undefined) => (/^\d{4}-\d{2}-\d{2}$/.test(one(v)) ? one(v) : "");

export default async function ActionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { ctx } = await requirePageAccess("/actions", pageRoles.actions);
  const sp = await searchParams;
  const page = Number.parseInt(one(sp.page), 10);
  return (
    <ActionsView
      initial={{
        status: one(sp.status),
        capability: one(sp.capability),
        user: one(sp.user),
        from: day(sp.from),
        to: day(sp.to),
        page: Number.isFinite(page) && page > 0 ? page : 1,
      }}
      canRecover={ctx.role !== "member"}
    />
  );
}
