"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { safeNext } from "@/components/safe-next";
import { ApiError, apiSend } from "./api-client";
import { buttonClass, inputClass, labelClass } from "./ui";

export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      await apiSend("POST", "/api/auth/sign-in", {
        email: form.get("email"),
        password: form.get("password"),
      });
      // Checked again here: the prop is the only thing between a crafted link and the navigation.
      const target = safeNext(next);
      // The OAuth consent page is served outside Next (server/oauth): a full page load reaches it.
      if (target.startsWith("/oauth/")) {
        window.location.assign(target);
        return;
      }
      router.replace(target);
      router.refresh();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "Could not sign in. Try again.");
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate={false}>
      <div>
        <label htmlFor="email" className={labelClass}>
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          className={`${inputClass} mt-1`}
        />
      </div>
      <div>
        <label htmlFor="password" className={labelClass}>
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={`${inputClass} mt-1`}
        />
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy} className={`${buttonClass("primary")} w-full`}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
