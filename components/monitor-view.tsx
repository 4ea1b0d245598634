"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { OUTCOME_KINDS } from "@/server/engine/outcome";
import type { AuditEventView } from "@/server/gateway/console/list-audit-events";
import { apiGet } from "./api-client";
import {
  Badge,
  buttonClass,
  ErrorState,
  inputClass,
  JsonBlock,
  LoadingState,
  labelClass,
  PageHeader,
  Time,
} from "./ui";

type Filter = {
  agentId: string;
  face: string;
  operation: string;
  outcome: string;
  target: string;
  q: string;
};
const EMPTY: Filter = { agentId: "", face: "", operation: "", outcome: "", target: "", q: "" };
const FACES = ["actions", "browse", "script", "console", "cli", "system"];
const ROW_HEIGHT = 36;
const VIEWPORT_ROWS = 18;
const MAX_ROWS = 50_000;

function queryString(filter: Filter, extra: Record<string, string | number>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) sp.set(k, v);
  for (const [k, v] of Object.entries(extra)) sp.set(k, String(v));
  return sp.toString();
}

/** Newest first, no duplicates: events can arrive from both the backfill and the stream. */
function merge(current: AuditEventView[], incoming: AuditEventView[]): AuditEventView[] {
  if (incoming.length === 0) return current;
  const seen = new Set(current.map((e) => e.seq));
  const fresh = incoming.filter((e) => !seen.has(e.seq));
  if (fresh.length === 0) return current;
  return [...fresh, ...current].sort((a, b) => b.seq - a.seq).slice(0, MAX_ROWS);
}

/** Renders only the rows in view: thousands of events stay smooth. */
function VirtualRows({
  rows,
  agentNames,
  selected,
  onSelect,
}: {
  rows: AuditEventView[];
  agentNames: Map<string, string>;
  selected: number | null;
  onSelect: (seq: number) => void;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - 5);
  const last = Math.min(rows.length, first + VIEWPORT_ROWS + 10);
  const visible = rows.slice(first, last);
  return (
    <div
      className="relative overflow-auto rounded-b-lg border border-t-0 border-slate-200 bg-white"
      style={{ height: ROW_HEIGHT * VIEWPORT_ROWS }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      data-testid="monitor-rows"
      data-row-count={rows.length}
    >
      <ul
        style={{ height: rows.length * ROW_HEIGHT }}
        className="relative"
        aria-label="Agent operations, newest first"
      >
        {visible.map((e, i) => (
          <li
            key={e.seq}
            style={{
              position: "absolute",
              top: (first + i) * ROW_HEIGHT,
              height: ROW_HEIGHT,
              left: 0,
              right: 0,
            }}
          >
            <button
              type="button"
              onClick={() => onSelect(e.seq)}
              aria-pressed={selected === e.seq}
              data-testid="monitor-row"
              data-seq={e.seq}
              className={`grid h-full w-full grid-cols-[3.5rem_6.5rem_4rem_9rem_minmax(8rem,1fr)_6.5rem_3.5rem] items-center gap-2 border-b border-slate-100 px-3 text-left text-xs focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-600 ${
                selected === e.seq ? "bg-sky-50" : "hover:bg-slate-50"
              }`}
            >
              <span className="tabular-nums text-slate-600">#{e.seq}</span>
              <span className="truncate tabular-nums text-slate-600">{e.createdAt.slice(11, 23)}</span>
              <span className="truncate text-slate-600">{e.face}</span>
              <span className="truncate font-medium">{e.operation}</span>
              <span className="truncate text-slate-600" title={e.target ?? ""}>
                {e.capability ?? e.target ?? ""}{" "}
                {e.agentId ? (
                  <span className="text-slate-600">· {agentNames.get(e.agentId) ?? e.agentId}</span>
                ) : e.userId ? (
                  <span className="text-slate-600" data-testid="monitor-actor">
                    · by {agentNames.get(e.userId) ?? e.userId}
                  </span>
                ) : null}
              </span>
              <span>
                <Badge value={e.outcome} />
              </span>
              <span className="text-right tabular-nums text-slate-600">{e.latencyMs} ms</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Detail({
  event,
  agentName,
  personName,
}: {
  event: AuditEventView;
  agentName?: string;
  personName?: string;
}) {
  return (
    <section
      aria-label={`Operation ${event.seq}`}
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="monitor-detail"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">{event.operation}</h2>
        <Badge value={event.outcome} />
      </div>
      <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-slate-600">seq</dt>
        <dd>{event.seq}</dd>
        <dt className="text-slate-600">when</dt>
        <dd>
          <Time iso={event.createdAt} />
        </dd>
        <dt className="text-slate-600">face</dt>
        <dd>{event.face}</dd>
        <dt className="text-slate-600">agent</dt>
        <dd>{event.agentId ? (agentName ?? event.agentId) : "—"}</dd>
        <dt className="text-slate-600">{event.agentId ? "for" : "by"}</dt>
        <dd>{event.userId ? (personName ?? event.userId) : "—"}</dd>
        <dt className="text-slate-600">target</dt>
        <dd className="break-all">{event.target ?? "—"}</dd>
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
      <h3 className="mt-3 mb-1 text-xs font-semibold text-slate-600">Arguments (secrets redacted)</h3>
      <JsonBlock value={event.arguments} label="Arguments" />
    </section>
  );
}

export function MonitorView() {
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [rows, setRows] = useState<AuditEventView[]>([]);
  const [buffer, setBuffer] = useState<AuditEventView[]>([]);
  const [paused, setPaused] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [live, setLive] = useState<"connecting" | "live" | "reconnecting">("connecting");
  const [loadingOlder, setLoadingOlder] = useState(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;

  const agents = useQuery({
    queryKey: ["agent-and-people-names"],
    queryFn: () =>
      apiGet<{
        agents: { id: string; name: string }[];
        people: { id: string; name: string; role: string }[];
      }>("/api/console/agent-names"),
  });
  // Agents and people by id (both are cuids): rows name the agent, or the person who acted.
  const agentNames = useMemo(
    () =>
      new Map([
        ...(agents.data?.agents ?? []).map((a): [string, string] => [a.id, a.name]),
        ...(agents.data?.people ?? []).map((p): [string, string] => [p.id, `${p.name} (${p.role})`]),
      ]),
    [agents.data],
  );

  // Text filters apply after a short pause in typing; selects apply at once.
  useEffect(() => {
    const t = setTimeout(() => setFilter(draft), 300);
    return () => clearTimeout(t);
  }, [draft]);

  const backfill = useQuery({
    queryKey: ["audit-backfill", filter],
    queryFn: () =>
      apiGet<{ events: AuditEventView[] }>(`/api/console/audit?${queryString(filter, { limit: 500 })}`).then(
        (r) => r.events,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

  // The live stream starts where the backfill ended; EventSource resumes from Last-Event-ID by itself.
  useEffect(() => {
    if (!backfill.data) return;
    setRows(backfill.data);
    setBuffer([]);
    const after = backfill.data[0]?.seq ?? 0;
    const source = new EventSource(`/api/console/stream?${queryString(filter, { after })}`);
    setLive("connecting");
    source.onopen = () => setLive("live");
    source.onerror = () => setLive("reconnecting");
    source.addEventListener("audit", (msg) => {
      const event = JSON.parse((msg as MessageEvent<string>).data) as AuditEventView;
      if (pausedRef.current) setBuffer((b) => [event, ...b]);
      else setRows((r) => merge(r, [event]));
    });
    return () => source.close();
  }, [backfill.data, filter]);

  const resume = useCallback(() => {
    setRows((r) => merge(r, buffer));
    setBuffer([]);
    setPaused(false);
  }, [buffer]);

  async function loadOlder() {
    const oldest = rows[rows.length - 1]?.seq;
    if (!oldest) return;
    setLoadingOlder(true);
    try {
      const r = await apiGet<{ events: AuditEventView[] }>(
        `/api/console/audit?${queryString(filter, { before: oldest, limit: 1000 })}`,
      );
      setRows((cur) => merge(cur, r.events));
    } finally {
      setLoadingOlder(false);
    }
  }

  const selectedEvent = rows.find((e) => e.seq === selected) ?? null;
  const field = (
    key: keyof Filter,
    labelText: string,
    input: "text" | "select",
    options?: { value: string; label: string }[],
  ) => (
    <div>
      <label htmlFor={`f-${key}`} className={labelClass}>
        {labelText}
      </label>
      {input === "select" ? (
        <select
          id={`f-${key}`}
          value={draft[key]}
          onChange={(e) => {
            const next = { ...draft, [key]: e.target.value };
            setDraft(next);
            setFilter(next);
          }}
          className={`${inputClass} mt-1`}
        >
          <option value="">any</option>
          {options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={`f-${key}`}
          value={draft[key]}
          onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          className={`${inputClass} mt-1`}
        />
      )}
    </div>
  );

  return (
    <div>
      <PageHeader
        title="Live monitor"
        description="Every agent operation as it happens, newest first. Backfilled from the audit log; reconnects resume from the last sequence number."
        actions={
          <>
            <span
              role="status"
              data-testid="live-status"
              className={`self-center rounded-full px-2 py-0.5 text-xs ${live === "live" ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-900"}`}
            >
              {paused ? "paused" : live}
            </span>
            {paused ? (
              <button type="button" className={buttonClass("primary")} onClick={resume}>
                Resume{buffer.length ? ` (${buffer.length} new)` : ""}
              </button>
            ) : (
              <button type="button" className={buttonClass("secondary")} onClick={() => setPaused(true)}>
                Pause
              </button>
            )}
          </>
        }
      />
      <form
        className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-6"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        {field(
          "agentId",
          "Agent",
          "select",
          (agents.data?.agents ?? []).map((a) => ({ value: a.id, label: a.name })),
        )}
        {field(
          "face",
          "Face",
          "select",
          FACES.map((f) => ({ value: f, label: f })),
        )}
        {field("operation", "Operation", "text")}
        {field(
          "outcome",
          "Outcome",
          "select",
          OUTCOME_KINDS.map((o) => ({ value: o, label: o.replaceAll("_", " ") })),
        )}
        {field("target", "Capability or URI", "text")}
        {field("q", "Text", "text")}
      </form>
      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          <div
            className="grid grid-cols-[3.5rem_6.5rem_4rem_9rem_minmax(8rem,1fr)_6.5rem_3.5rem] gap-2 rounded-t-lg border border-slate-200 bg-slate-50 px-3 py-2 text-xs font-medium text-slate-600"
            aria-hidden="true"
          >
            <span>seq</span>
            <span>time (UTC)</span>
            <span>face</span>
            <span>operation</span>
            <span>target · agent</span>
            <span>outcome</span>
            <span className="text-right">latency</span>
          </div>
          {backfill.isPending ? (
            <LoadingState label="Loading recent operations…" />
          ) : backfill.error ? (
            <ErrorState error={backfill.error} onRetry={() => backfill.refetch()} />
          ) : rows.length === 0 ? (
            <p
              className="rounded-b-lg border border-t-0 border-slate-200 bg-white px-3 py-8 text-center text-sm text-slate-600"
              data-testid="empty-state"
            >
              No operations match yet. New ones appear here as agents work.
            </p>
          ) : (
            <VirtualRows rows={rows} agentNames={agentNames} selected={selected} onSelect={setSelected} />
          )}
          <div className="mt-2 flex items-center justify-between text-xs text-slate-600">
            <span data-testid="row-count">{rows.length} operations shown</span>
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={loadOlder}
              disabled={loadingOlder || rows.length === 0}
            >
              {loadingOlder ? "Loading…" : "Load older"}
            </button>
          </div>
        </div>
        <div>
          {selectedEvent ? (
            <Detail
              event={selectedEvent}
              agentName={selectedEvent.agentId ? agentNames.get(selectedEvent.agentId) : undefined}
              personName={selectedEvent.userId ? agentNames.get(selectedEvent.userId) : undefined}
            />
          ) : (
            <p className="text-sm text-slate-600">
              Select a row to see its arguments, outcome, policy decision and latency.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
