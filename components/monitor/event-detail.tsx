"use client";

import Link from "next/link";
import type { AuditEventView } from "@/server/gateway/console/list-audit-events";
import { Badge, JsonBlock, Time } from "../ui";
import { isScriptCall } from "./monitor-rows";

/** One selected event: its arguments (secrets redacted), outcome, latency, and a script run's calls. */
export function EventDetail({
  event,
  agentName,
  personName,
  run,
  onSelect,
}: {
  event: AuditEventView;
  agentName?: string;
  personName?: string;
  /** The script run this row belongs to (its own row and its calls), when it is one. */
  run: AuditEventView[];
  onSelect: (seq: number) => void;
}) {
  return (
    <section
      aria-label={`Operation ${event.seq}`}
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="monitor-detail"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold [overflow-wrap:anywhere]">{event.operation}</h2>
        <Badge value={event.outcome} />
      </div>
      <dl className="mt-3 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs [overflow-wrap:anywhere]">
        <dt className="text-slate-600">seq</dt>
        <dd>{event.seq}</dd>
        <dt className="text-slate-600">when</dt>
        <dd>
          <Time iso={event.createdAt} /> UTC
        </dd>
        <dt className="text-slate-600">face</dt>
        <dd>{event.face}</dd>
        <dt className="text-slate-600">agent</dt>
        <dd>{event.agentId ? (agentName ?? event.agentId) : "—"}</dd>
        <dt className="text-slate-600">{event.agentId ? "for" : "by"}</dt>
        <dd data-testid="monitor-detail-person">{event.userId ? (personName ?? event.userId) : "—"}</dd>
        <dt className="text-slate-600">target</dt>
        <dd>{event.target ?? "—"}</dd>
        <dt className="text-slate-600">capability</dt>
        <dd>{event.capability ?? "—"}</dd>
        <dt className="text-slate-600">policy</dt>
        <dd>{event.decision ?? "—"}</dd>
        <dt className="text-slate-600">latency</dt>
        <dd>{event.latencyMs} ms</dd>
        <dt className="text-slate-600">message</dt>
        <dd>{event.message ?? "—"}</dd>
        <dt className="text-slate-600">action</dt>
        <dd>
          {event.actionId ? (
            <Link className="text-sky-800 underline" href={`/actions/${event.actionId}`}>
              {event.actionId}
            </Link>
          ) : (
            "—"
          )}
        </dd>
      </dl>
      {run.length > 0 ? (
        <>
          <h3 className="mt-3 mb-1 text-xs font-semibold text-slate-700">
            Script run ({run.filter(isScriptCall).length} calls)
          </h3>
          <ol className="space-y-1 text-xs" data-testid="monitor-script-run">
            {run.map((r) => (
              <li key={r.seq}>
                <button
                  type="button"
                  onClick={() => onSelect(r.seq)}
                  aria-current={r.seq === event.seq ? "true" : undefined}
                  className={`w-full text-left [overflow-wrap:anywhere] ${r.seq === event.seq ? "font-semibold" : "text-sky-800 underline"}`}
                >
                  #{r.seq} {isScriptCall(r) ? "↳ " : ""}
                  {r.operation} {r.target ?? ""} → {r.outcome}
                </button>
              </li>
            ))}
          </ol>
        </>
      ) : null}
      <h3 className="mt-3 mb-1 text-xs font-semibold text-slate-700">Arguments (secrets redacted)</h3>
      <JsonBlock value={event.arguments} label="Arguments" />
    </section>
  );
}
