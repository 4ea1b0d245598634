"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { NotificationPreferences } from "@/server/gateway/console/notification-preferences";
import { apiSend } from "./api-client";
import { buttonClass, Card, ErrorState, PageHeader } from "./ui";

type Permission = "default" | "granted" | "denied" | "unsupported";

export function NotificationSettings({
  initial,
  emailConfigured,
  email,
  role,
}: {
  initial: NotificationPreferences;
  emailConfigured: boolean;
  email: string;
  role: string;
}) {
  const [prefs, setPrefs] = useState(initial);
  const [permission, setPermission] = useState<Permission>("default");
  useEffect(() => {
    setPermission(
      typeof Notification === "undefined" ? "unsupported" : (Notification.permission as Permission),
    );
  }, []);
  const save = useMutation({
    mutationFn: (next: NotificationPreferences) =>
      apiSend<NotificationPreferences>("PUT", "/api/console/settings/notifications", next),
  });
  const change = (next: NotificationPreferences) => {
    setPrefs(next);
    save.mutate(next);
  };
  const what =
    role === "admin"
      ? "an approval waits for you, or an agent asks for a permission"
      : role === "support"
        ? "an approval names you (support rarely decides)"
        : "one of your agents asks you to approve a change it prepared for you";
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader
        title="Notifications"
        description={`Be told when ${what}. These settings are yours alone.`}
      />
      <Card title="Email">
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={prefs.notifyEmail}
            onChange={(e) => change({ ...prefs, notifyEmail: e.target.checked })}
          />
          <span>
            Email me at <strong>{email}</strong>, with a link to the page where I decide.
            {emailConfigured ? null : (
              <span className="mt-1 block text-slate-700" data-testid="smtp-missing">
                No mail server is configured on this Signpost (SIGNPOST_SMTP_URL), so no email is sent yet.
              </span>
            )}
          </span>
        </label>
      </Card>
      <Card title="In this browser">
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={prefs.notifyBrowser}
            onChange={(e) => change({ ...prefs, notifyBrowser: e.target.checked })}
          />
          <span>Show a notification while the console is open (the tab title always counts what waits).</span>
        </label>
        <p className="mt-3 text-sm text-slate-700" data-testid="browser-permission">
          {permission === "granted"
            ? "This browser allows Signpost's notifications."
            : permission === "denied"
              ? "This browser blocks Signpost's notifications: allow them in the site settings."
              : permission === "unsupported"
                ? "This browser cannot show notifications."
                : "This browser has not been asked yet."}
        </p>
        {permission === "default" ? (
          <button
            type="button"
            className={`${buttonClass("secondary")} mt-2`}
            onClick={() => void Notification.requestPermission().then((p) => setPermission(p as Permission))}
          >
            Allow notifications in this browser
          </button>
        ) : null}
      </Card>
      {save.error ? <ErrorState error={save.error} /> : null}
      {save.isSuccess ? (
        <p role="status" className="text-sm text-emerald-800" data-testid="settings-saved">
          Saved.
        </p>
      ) : null}
    </div>
  );
}
