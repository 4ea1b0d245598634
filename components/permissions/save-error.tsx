"use client";
import { ApiError } from "../api-client";
import { ErrorState } from "../ui";

/** A refused save names what is wrong with which field, not only that the request was invalid. */
export function SaveError({ error }: { error: unknown }) {
  const details =
    error instanceof ApiError && Array.isArray(error.details)
      ? (error.details as { path?: string; message?: string }[])
      : [];
  if (details.length === 0) return <ErrorState error={error} />;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p>The rule was not saved:</p>
      <ul className="mt-1 list-disc pl-5">
        {details.map((d) => (
          <li key={`${d.path}:${d.message}`}>
            {d.path ? <strong>{d.path}: </strong> : null}
            {d.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
