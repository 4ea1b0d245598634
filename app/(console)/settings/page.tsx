import type { Metadata } from "next";
import { pageRoles, requirePageAccess } from "@/app/_lib/console-context";
import { ConnectionsSettings } from "@/components/connections-settings";
import { NotificationSettings } from "@/components/notification-settings";
import { SignInSettingsCard } from "@/components/sign-in-settings";
import { getDb } from "@/server/db/client";
import { readNotificationPreferences } from "@/server/gateway/console/notification-preferences";
import { ssoConfigFromEnv } from "@/server/oauth/console-sso";
import { readSignInSettings } from "@/server/oauth/sign-in-settings";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Notifications" };

export default async function SettingsPage() {
  const { ctx } = await requirePageAccess("/settings", pageRoles.settings);
  return (
    <div className="space-y-6">
      <NotificationSettings
        initial={await readNotificationPreferences(getDb(), ctx)}
        emailConfigured={Boolean(process.env.SIGNPOST_SMTP_URL)}
        email={ctx.email}
        role={ctx.role}
      />
      <ConnectionsSettings isAdmin={ctx.role === "admin"} />
      {ctx.role === "admin" ? (
        <div className="max-w-2xl">
          <SignInSettingsCard initial={await readSignInSettings(getDb(), ctx, ssoConfigFromEnv())} />
        </div>
      ) : null}
    </div>
  );
}
