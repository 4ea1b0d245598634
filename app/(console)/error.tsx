"use client";

import { buttonClass } from "@/components/ui";

/** A page that failed to render: say so, offer a retry, never show internals. */
export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-6 py-8">
      <h1 className="text-xl font-semibold text-red-900">This page could not be loaded</h1>
      <p className="mt-2 text-sm text-red-800">Something went wrong on our side. Try again in a moment.</p>
      <button type="button" onClick={reset} className={`${buttonClass("secondary")} mt-4`}>
        Try again
      </button>
    </div>
  );
}
