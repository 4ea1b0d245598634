import Link from "next/link";
import type { ReactNode } from "react";
import { currentConsoleContext } from "@/app/_lib/console-context";
import { ConsoleFrame } from "@/app/_lib/console-frame";

/**
 * A 403 or 404 page: what happened in words and where to go next, inside the console's frame
 * when the person is signed in (sign-in otherwise). Next sends the HTTP status itself.
 */
export async function StatusPage({
  code,
  title,
  children,
}: {
  code: 403 | 404;
  title: string;
  children: ReactNode;
}) {
  const ctx = await currentConsoleContext();
  const body = (
    <div
      role="alert"
      className={`max-w-2xl rounded-lg border px-6 py-8 ${code === 403 ? "border-amber-200 bg-amber-50" : "border-slate-200 bg-white"}`}
      data-testid={code === 403 ? "forbidden" : "not-found"}
    >
      <p className="text-sm font-medium text-slate-600">Error {code}</p>
      <h1 className="mt-1 text-xl font-semibold text-slate-900">{title}</h1>
      <div className="mt-2 text-sm text-slate-700">{children}</div>
      <p className="mt-4 flex flex-wrap gap-4 text-sm">
        {ctx ? (
          <Link href="/" className="font-medium text-sky-800 underline">
            Go to the overview
          </Link>
        ) : (
          <Link href="/sign-in" className="font-medium text-sky-800 underline">
            Sign in
          </Link>
        )}
      </p>
    </div>
  );
  if (!ctx) return <main className="flex min-h-screen items-center justify-center px-4">{body}</main>;
  return <ConsoleFrame ctx={ctx}>{body}</ConsoleFrame>;
}
