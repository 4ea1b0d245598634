import { consoleRoute } from "@/app/_lib/console-route";
import {
  notificationPreferencesSchema,
  readNotificationPreferences,
  saveNotificationPreferences,
} from "@/server/gateway/console/notification-preferences";

export const dynamic = "force-dynamic";

export const GET = consoleRoute({}, async ({ db, ctx }) =>
  Response.json(await readNotificationPreferences(db, ctx), { headers: { "cache-control": "no-store" } }),
);

/** The signed-in person's own preferences (nobody sets another person's). */
export const PUT = consoleRoute({ body: notificationPreferencesSchema }, async ({ db, ctx, body }) =>
  Response.json(await saveNotificationPreferences(db, ctx, body), {
    headers: { "cache-control": "no-store" },
  }),
);
