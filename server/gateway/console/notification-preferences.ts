import { z } from "zod";
import type { Db } from "../../db/client";
import type { ConsoleContext } from "../console-session";
import { recordConsoleAudit } from "./record-console-audit";

export const notificationPreferencesSchema = z
  .object({
    /** Email when something waits for this person (needs SIGNPOST_SMTP_URL on the server). */
    notifyEmail: z.boolean(),
    /** A browser notification while the console is open (the browser asks for permission too). */
    notifyBrowser: z.boolean(),
  })
  .strict();
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

export async function readNotificationPreferences(
  db: Db,
  ctx: ConsoleContext,
): Promise<NotificationPreferences> {
  const user = await db.user.findFirst({
    where: { id: ctx.userId, tenantId: ctx.tenantId },
    select: { notifyEmail: true, notifyBrowser: true },
  });
  return { notifyEmail: user?.notifyEmail ?? true, notifyBrowser: user?.notifyBrowser ?? true };
}

/** Each person turns their own notifications on or off; audited like every console change. */
export async function saveNotificationPreferences(
  db: Db,
  ctx: ConsoleContext,
  prefs: NotificationPreferences,
): Promise<NotificationPreferences> {
  const startedAt = Date.now();
  await db.user.updateMany({ where: { id: ctx.userId, tenantId: ctx.tenantId }, data: prefs });
  await recordConsoleAudit(db, ctx, {
    operation: "notifications.changed",
    target: `user:${ctx.userId}`,
    arguments: prefs,
    outcome: "applied",
    startedAt,
  });
  return prefs;
}
