import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { EMPTY_MONITOR_FILTER, type MonitorFilter } from "@/components/monitor/monitor-filter";
import { MonitorView } from "@/components/monitor/monitor-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Live monitor" };

/** The monitor; its filters and range come from the address, so a filtered view can be shared. */
export default async function MonitorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requirePageAccess("/monitor", pageRoles.monitor);
  const sp = await searchParams;
  const initial: MonitorFilter = { ...EMPTY_MONITOR_FILTER };
  for (const key of Object.keys(EMPTY_MONITOR_FILTER) as (keyof MonitorFilter)[]) {
    const v = sp[key];
    if (typeof v === "string") initial[key] = v.slice(0, 300);
  }
  return <MonitorView initial={initial} />;
}
