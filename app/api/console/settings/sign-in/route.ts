import { consoleRoute, resultResponse } from "@/app/_lib/console-route";
import { ssoConfigFromEnv } from "@/server/oauth/console-sso";
import {
  readSignInSettings,
  saveSignInSettings,
  signInSettingsInputSchema,
} from "@/server/oauth/sign-in-settings";

export const dynamic = "force-dynamic";

/** How this tenant's people sign in: passwords on or off, the company sign-in and whether its secret is set. */
export const GET = consoleRoute({ roles: ["admin"] }, async ({ db, ctx }) =>
  Response.json(await readSignInSettings(db, ctx, ssoConfigFromEnv()), {
    headers: { "cache-control": "no-store" },
  }),
);

/** An admin turns password sign-in off (company sign-in only) or on, or sets the client secret (write-only). */
export const PUT = consoleRoute(
  { roles: ["admin"], body: signInSettingsInputSchema },
  async ({ db, ctx, body }) => resultResponse(await saveSignInSettings(db, ctx, body, ssoConfigFromEnv())),
);
