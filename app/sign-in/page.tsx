import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentConsoleContext } from "@/app/_lib/console-context";
import { safeNext } from "@/components/safe-next";
import { SignInForm } from "@/components/sign-in-form";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  // Only same-site paths are followed after sign-in: `next` is never an open redirect.
  const next = safeNext((await searchParams).next);
  if (await currentConsoleContext()) redirect(next);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-100 px-4">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <div className="mb-6 flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-6 w-6 rounded bg-sky-500" />
          <h1 className="text-xl font-semibold">Sign in to Signpost</h1>
        </div>
        {process.env.SIGNPOST_SSO_ISSUER ? (
          <a
            href={`/oauth/sso/start?next=${encodeURIComponent(next)}`}
            className="mb-6 block rounded-md border border-slate-300 px-4 py-2 text-center font-medium hover:bg-slate-50"
          >
            Sign in with your company account
          </a>
        ) : null}
        <SignInForm next={next} />
      </div>
    </main>
  );
}
