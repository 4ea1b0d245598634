import type { ReactNode } from "react";

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0 [overflow-wrap:anywhere]">
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{title}</h1>
        {description ? <p className="mt-1 max-w-3xl text-sm text-slate-600">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </header>
  );
}

export function Card({
  title,
  children,
  className = "",
}: {
  title?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm ${className}`}>
      {title ? (
        <h2 className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-800">{title}</h2>
      ) : null}
      <div className="p-4">{children}</div>
    </section>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center"
      data-testid="empty-state"
    >
      <p className="font-medium text-slate-700">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

export function LoadingState({ label = "Loading…" }: { label?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex items-center gap-2 px-2 py-6 text-sm text-slate-600"
    >
      <span
        className="h-4 w-4 animate-spin rounded-full border-2 border-slate-300 border-t-slate-600"
        aria-hidden="true"
      />
      {label}
    </div>
  );
}

export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      <p>{message}</p>
      {onRetry ? (
        <button type="button" onClick={onRetry} className={`${buttonClass("secondary")} mt-2`}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

const tone: Record<string, string> = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  red: "bg-red-50 text-red-800 ring-red-200",
  amber: "bg-amber-50 text-amber-900 ring-amber-200",
  blue: "bg-sky-50 text-sky-800 ring-sky-200",
  slate: "bg-slate-100 text-slate-700 ring-slate-200",
};

const statusTone: Record<string, keyof typeof tone> = {
  applied: "green",
  connected: "green",
  enabled: "green",
  approved: "green",
  completed: "green",
  allow: "green",
  granted: "green",
  succeeded: "green",
  preview: "blue",
  input_required: "blue",
  open: "blue",
  awaiting_approval: "amber",
  pending: "amber",
  ask: "amber",
  executing: "amber",
  conflict: "amber",
  rejected: "red",
  deny: "red",
  denied: "red",
  failed: "red",
  unknown: "red",
  temporarily_unavailable: "red",
  not_found: "slate",
  voided: "slate",
  cancelled: "slate",
  // Ended at its start: nothing happened and nothing is held.
  refused: "slate",
  revoked: "slate",
};

/** Typed outcomes and statuses in words; anything else shows as it is, underscores as spaces. */
const BADGE_LABELS: Record<string, string> = {
  input_required: "input required",
  temporarily_unavailable: "unavailable",
  awaiting_approval: "awaiting approval",
  not_found: "not found",
  voided: "replaced",
};

export function Badge({ value, className = "" }: { value: string; className?: string }) {
  const t = tone[statusTone[value] ?? "slate"];
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${t} ${className}`}
    >
      {BADGE_LABELS[value] ?? value.replaceAll("_", " ")}
    </span>
  );
}

export function buttonClass(
  kind: "primary" | "secondary" | "danger" = "primary",
  size: "sm" | "md" = "md",
): string {
  const base =
    "inline-flex items-center justify-center gap-1 rounded-md font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-600 disabled:cursor-not-allowed disabled:opacity-50";
  const sizes = size === "sm" ? "px-2 py-1 text-xs" : "px-3 py-1.5 text-sm";
  const kinds = {
    primary: "bg-slate-900 text-white hover:bg-slate-700",
    secondary: "bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50",
    danger: "bg-red-600 text-white hover:bg-red-500",
  };
  return `${base} ${sizes} ${kinds[kind]}`;
}

export const inputClass =
  "block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm focus:border-sky-600 focus:outline-2 focus:outline-sky-600";
export const labelClass = "block text-xs font-medium text-slate-700";

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="text-slate-600">—</span>;
  // A fixed, locale-free format: server and browser render the same text (no hydration mismatch).
  return (
    <time dateTime={iso} title={`${iso.replace("T", " ").slice(0, 19)} UTC`}>
      {iso.replace("T", " ").slice(0, 16)}
    </time>
  );
}

/**
 * A wide table that scrolls inside itself on a narrow screen instead of widening the page.
 * Focusable and named, so keyboard users can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({
  label,
  children,
  className = "",
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      className={`max-w-full overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-sky-600 ${className}`}
    >
      {children}
    </section>
  );
}

export function JsonBlock({ value, label }: { value: unknown; label?: string }) {
  return (
    <pre
      title={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard
      tabIndex={0}
      className="palette-fixed max-h-80 max-w-full overflow-auto rounded bg-slate-950 p-3 text-xs leading-relaxed text-slate-100"
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/**
 * The header row every console table shares. A column named "" is an actions column: visually
 * empty, announced to screen readers as "Actions".
 */
export function TableHead({ columns }: { columns: string[] }) {
  return (
    <thead className="bg-slate-50 text-left text-xs text-slate-600">
      <tr>
        {columns.map((column) => (
          <th key={column || "actions"} scope="col" className="px-3 py-2 font-medium">
            {column || <span className="sr-only">Actions</span>}
          </th>
        ))}
      </tr>
    </thead>
  );
}
