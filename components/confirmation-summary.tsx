import type { ReactNode } from "react";
import { renderSummary, type SummaryRow } from "@/server/connectors/sdk/render-decision-summary";
import { formatTime } from "./format-time";

/**
 * The confirmation screen's summary: what will happen if the person approves — the sentence
 * ("Pay $55.00 from Store credit"), the headline amount with what it is, then every row the
 * capability's typed summary has, nested values indented, context facts apart, who asked and
 * until when. The rows come from the one renderer (render-decision-summary.ts) that also writes
 * the email and the agent's text, so all of them say the same. A pure render function (no hooks,
 * no browser APIs) so the console's /confirm page and the MCP Apps resource (via
 * react-dom/server's renderToStaticMarkup) show the very same thing.
 */
export type ConfirmationSummaryProps = {
  capability: string;
  /** The capability's declared title: the heading when the summary carries none of its own. */
  title: string;
  actionId: string;
  version: number;
  summary: unknown;
  /** The approval's status, when known: pending | approved | rejected | voided | expired. */
  status?: string;
  /** Who asked, when, for whom and until when (the confirm screen and the MCP App know). */
  request?: {
    agentName?: string | null;
    forName?: string | null;
    requestedAt?: string | null;
    expiresAt?: string | null;
  };
  /** Top-level summary keys the agent changed since the version the person saw before: marked. */
  changed?: readonly string[];
};

const STATUS_LABELS: Record<string, string> = {
  pending: "Waiting for approval",
  approved: "Approved",
  rejected: "Rejected",
  voided: "Replaced by a newer version",
  expired: "Expired",
};
export function approvalStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status.replaceAll("_", " ");
}

function Row({ row, changed }: { row: SummaryRow; changed: boolean }) {
  return (
    <div className="contents" data-key={row.path} data-depth={row.depth}>
      <dt className="text-slate-600" style={row.depth ? { paddingLeft: `${row.depth}rem` } : undefined}>
        {row.label}
      </dt>
      {/* pre-wrap: "a  b" and "a b" are different values and must not read the same. */}
      <dd className={`whitespace-pre-wrap ${changed ? "font-medium text-slate-900" : "text-slate-900"}`}>
        {row.text}
        {row.note ? <span className="ml-1 text-slate-600">({row.note})</span> : null}
        {changed ? <Changed /> : null}
      </dd>
    </div>
  );
}

function Changed(): ReactNode {
  return (
    <span className="ml-2 rounded bg-amber-100 px-1 text-xs font-medium text-amber-900" data-field="changed">
      changed
    </span>
  );
}

export function ConfirmationSummary({
  capability,
  title,
  actionId,
  version,
  summary,
  status,
  request,
  changed = [],
}: ConfirmationSummaryProps) {
  const shown = renderSummary(summary, title);
  const changedSet = new Set(changed);
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      data-testid="confirmation-summary"
      data-action-id={actionId}
      data-version={version}
      aria-labelledby={`summary-${actionId}-${version}`}
    >
      <p className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
        <span data-field="capability">{shown.title}</span>
        {status ? (
          <span data-field="status" data-status={status} className="font-medium text-slate-700">
            {approvalStatusLabel(status)}
          </span>
        ) : null}
      </p>
      <h2 id={`summary-${actionId}-${version}`} className="mt-1 text-xl font-semibold" data-field="title">
        {shown.sentence ?? shown.title}
      </h2>
      {shown.headline ? (
        <p className="mt-2" data-field="amount">
          <span className="block text-xs font-medium text-slate-600" data-field="amount-label">
            {shown.headline.label}
          </span>
          <span className="text-3xl font-semibold tabular-nums">{shown.headline.text}</span>
        </p>
      ) : null}
      {shown.rows.length > 0 ? (
        <dl
          className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm [overflow-wrap:anywhere]"
          data-field="details"
        >
          {shown.rows.map((row) => (
            <Row key={row.path} row={row} changed={row.depth === 0 && changedSet.has(row.top)} />
          ))}
        </dl>
      ) : null}
      {shown.now.length > 0 ? (
        <dl
          className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm text-slate-700"
          data-field="now"
        >
          {shown.now.map((row) => (
            <Row key={row.path} row={row} changed={false} />
          ))}
        </dl>
      ) : null}
      {request ? (
        <dl
          className="mt-4 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-4 gap-y-1 border-t border-slate-200 pt-3 text-xs text-slate-700"
          data-field="request"
        >
          {request.agentName || request.requestedAt ? (
            <>
              <dt className="text-slate-600">Asked by</dt>
              <dd data-field="asked-by">
                {request.agentName ?? "an agent"}
                {request.forName ? ` for ${request.forName}` : ""}
                {request.requestedAt ? `, ${formatTime(request.requestedAt)}` : ""}
              </dd>
            </>
          ) : null}
          {request.expiresAt ? (
            <>
              <dt className="text-slate-600">Valid until</dt>
              <dd data-field="expires">{formatTime(request.expiresAt)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
      <details className="mt-3 text-xs text-slate-600" data-field="developer">
        <summary className="cursor-pointer">Details for developers</summary>
        <p className="mt-1 break-all">
          Action <code>{actionId}</code> · version {version} · capability <code>{capability}</code>
        </p>
      </details>
    </section>
  );
}
