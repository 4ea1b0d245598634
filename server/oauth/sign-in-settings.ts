import { z } from "zod";
import type { Db } from "../db/client";
import { type ConsoleResult, fail, ok } from "../gateway/console/console-result";
import { recordConsoleAudit } from "../gateway/console/record-console-audit";
import type { ConsoleContext } from "../gateway/console-session";
import { readSecret, setSecret } from "../gateway/vault";
import { type SsoConfig, ssoClientSecretRef } from "./console-sso";

/** What an admin may change about how their tenant's people sign in to the console. */
export const signInSettingsInputSchema = z
  .object({
    /** false: the company's OpenID provider only (no password sign-in for this tenant). */
    password_sign_in: z.boolean().optional(),
    /** The OpenID client secret, kept in the vault (write-only: never read back). */
    sso_client_secret: z.string().trim().min(1).max(4096).optional(),
  })
  .strict();

export type SignInSettings = {
  password_sign_in: boolean;
  /** The company sign-in as it applies to this tenant; null when it is not this tenant's. */
  sso: null | { issuer: string; email_domain: string; client_secret: "environment" | "vault" | "missing" };
};

/** The company sign-in when it is configured for this tenant (SIGNPOST_SSO_TENANT). */
function ssoFor(sso: SsoConfig | null, tenantId: string): SsoConfig | null {
  return sso && sso.SIGNPOST_SSO_TENANT === tenantId ? sso : null;
}

export async function readSignInSettings(
  db: Db,
  ctx: Pick<ConsoleContext, "tenantId">,
  ssoConfig: SsoConfig | null,
): Promise<SignInSettings> {
  const tenant = await db.tenant.findUniqueOrThrow({
    where: { id: ctx.tenantId },
    select: { passwordSignIn: true },
  });
  const sso = ssoFor(ssoConfig, ctx.tenantId);
  return {
    password_sign_in: tenant.passwordSignIn,
    sso: sso
      ? {
          issuer: sso.SIGNPOST_SSO_ISSUER,
          email_domain: sso.SIGNPOST_SSO_EMAIL_DOMAIN,
          client_secret: sso.SIGNPOST_SSO_CLIENT_SECRET
            ? "environment"
            : (await readSecret(db, ssoClientSecretRef(ctx.tenantId)))
              ? "vault"
              : "missing",
        }
      : null,
  };
}

/**
 * An admin's change: the client secret into the vault (audited by name, never by value), and
 * password sign-in on or off. Off only where the company sign-in can take over (configured for
 * this tenant, with a client secret), so nobody turns the console's door into a wall.
 */
export async function saveSignInSettings(
  db: Db,
  ctx: ConsoleContext,
  input: z.infer<typeof signInSettingsInputSchema>,
  ssoConfig: SsoConfig | null,
): Promise<ConsoleResult<SignInSettings>> {
  const sso = ssoFor(ssoConfig, ctx.tenantId);
  if ((input.sso_client_secret !== undefined || input.password_sign_in === false) && !sso)
    return fail(
      "conflict",
      "Company sign-in is not configured for this organisation: set SIGNPOST_SSO_ISSUER and SIGNPOST_SSO_TENANT first (README, Configuration).",
    );
  if (input.sso_client_secret !== undefined) {
    if (sso?.SIGNPOST_SSO_CLIENT_SECRET)
      return fail(
        "conflict",
        "SIGNPOST_SSO_CLIENT_SECRET is set in the environment and wins; remove it there to keep the secret in the vault.",
      );
    const startedAt = Date.now();
    const ref = ssoClientSecretRef(ctx.tenantId);
    await setSecret(db, { ...ref, value: input.sso_client_secret, updatedById: ctx.userId });
    await recordConsoleAudit(db, ctx, {
      operation: "secret.replaced",
      target: "sso:client_secret",
      arguments: { connector: ref.connector, name: ref.name },
      outcome: "applied",
      startedAt,
    });
  }
  if (input.password_sign_in !== undefined) {
    if (
      input.password_sign_in === false &&
      (await readSignInSettings(db, ctx, ssoConfig)).sso?.client_secret === "missing"
    )
      return fail(
        "conflict",
        "Set the company sign-in's client secret first: without it nobody could sign in.",
      );
    const startedAt = Date.now();
    await db.tenant.update({ where: { id: ctx.tenantId }, data: { passwordSignIn: input.password_sign_in } });
    await recordConsoleAudit(db, ctx, {
      operation: "tenant.sign_in_changed",
      target: `tenant:${ctx.tenantId}`,
      arguments: { password_sign_in: input.password_sign_in },
      outcome: "applied",
      startedAt,
    });
  }
  return ok(await readSignInSettings(db, ctx, ssoConfig));
}
