"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { SignInSettings } from "@/server/oauth/sign-in-settings";
import { apiSend } from "./api-client";
import { buttonClass, Card, ErrorState, inputClass } from "./ui";

/**
 * How the tenant's people sign in (admins only): the company sign-in's state, its client secret
 * (write-only: replaced, never shown) and whether passwords still work.
 */
export function SignInSettingsCard({ initial }: { initial: SignInSettings }) {
  const [settings, setSettings] = useState(initial);
  const [secret, setSecret] = useState("");
  const save = useMutation({
    mutationFn: (body: { password_sign_in?: boolean; sso_client_secret?: string }) =>
      apiSend<SignInSettings>("PUT", "/api/console/settings/sign-in", body),
    onSuccess: (next) => {
      setSettings(next);
      setSecret("");
    },
  });
  const sso = settings.sso;
  return (
    <Card title="Sign-in">
      <div className="space-y-4 text-sm" data-testid="sign-in-settings">
        <p>
          {sso ? (
            <>
              Company sign-in: <strong>{sso.issuer}</strong> for <strong>{sso.email_domain}</strong>{" "}
              addresses. Client secret:{" "}
              <strong data-testid="sso-secret-state">
                {sso.client_secret === "environment"
                  ? "set in the environment"
                  : sso.client_secret === "vault"
                    ? "set in the vault"
                    : "not set"}
              </strong>
              .
            </>
          ) : (
            "No company sign-in serves this organisation (SIGNPOST_SSO_ISSUER, SIGNPOST_SSO_TENANT): people sign in with passwords."
          )}
        </p>
        {sso && sso.client_secret !== "environment" ? (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (secret.trim()) save.mutate({ sso_client_secret: secret });
            }}
          >
            <label className="flex flex-col gap-1">
              <span>Client secret (write-only)</span>
              <input
                type="password"
                autoComplete="off"
                className={inputClass}
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
              />
            </label>
            <button
              type="submit"
              className={buttonClass("secondary")}
              disabled={!secret.trim() || save.isPending}
            >
              {sso.client_secret === "vault" ? "Replace secret" : "Set secret"}
            </button>
          </form>
        ) : null}
        <label className="flex items-start gap-3">
          <input
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={settings.password_sign_in}
            disabled={
              save.isPending || (settings.password_sign_in && (!sso || sso.client_secret === "missing"))
            }
            onChange={(e) => save.mutate({ password_sign_in: e.target.checked })}
          />
          <span>
            Allow password sign-in. Off: everyone of this organisation signs in with the company account only.
          </span>
        </label>
        {save.error ? <ErrorState error={save.error} /> : null}
      </div>
    </Card>
  );
}
