import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { NotificationSettings } from "@/components/notification-settings";
import { getDb } from "@/server/db/client";
import { readNotificationPreferences } from "@/server/gateway/console/notification-preferences";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

export default async function SettingsPage() {
  const { ctx } = await requirePageAccess("/settings", pageRoles.settings);
  return (
    <NotificationSettings
      initial={await readNotificationPreferences(getDb(), ctx)}
      emailConfigured={Boolean(process.env.SIGNPOST_SMTP_URL)}
      email={ctx.email}
      role={ctx.role}
    />
  );
}
