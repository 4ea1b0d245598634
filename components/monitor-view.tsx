"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { OUTCOME_KINDS } from "@/server/connectors/sdk/outcome";
import type { AuditEventView, AuditVolume } from "@/server/gateway/console/list-audit-events";
import { apiGet } from "./api-client";
import type { MonitorFilter } from "./monitor-filter";
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
import { VolumeChart } from "./volume-chart";

const TEXT_KEYS = ["operation", "target", "q"] as const;
const FACES = ["actions", "browse", "script", "console", "cli", "system"];
const RANGES: { value: string; label: string; ms?: number }[] = [
  { value: "", label: "All time" },
  { value: "15m", label: "Last 15 minutes", ms: 15 * 60_000 },
  { value: "1h", label: "Last hour", ms: 3_600_000 },
  { value: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { value: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { value: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
  { value: "custom", label: "Custom range" },
];
const ROW_HEIGHT = 36;
const VIEWPORT_ROWS = 16;
const MAX_ROWS = 50_000;
const GRID = "grid grid-cols-[3.5rem_9.5rem_4rem_9rem_minmax(10rem,1fr)_7rem_3.5rem] items-center gap-2";

/** The API's filter: presets become a `from` (computed when the filter is applied); custom sends both. */
function apiFilter(f: MonitorFilter, now = Date.now()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ["agentId", "face", "operation", "outcome", "target", "q"] as const)
    if (f[k]) out[k] = f[k];
  const preset = RANGES.find((r) => r.value === f.range)?.ms;
  if (preset) out.from = new Date(now - preset).toISOString();
  if (f.range === "custom") {
    if (f.from) out.from = new Date(f.from).toISOString();
    if (f.to) out.to = new Date(f.to).toISOString();
  }
  return out;
}

function queryString(params: Record<string, string>, extra: Record<string, string | number> = {}): string {
  const sp = new URLSearchParams(params);
  for (const [k, v] of Object.entries(extra)) sp.set(k, String(v));
  return sp.toString();
}

/** The address keeps the filter as typed (a preset stays a preset), so a shared link means the same. */
function urlOf(f: MonitorFilter): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(f))
    if (v && !(f.range !== "custom" && (k === "from" || k === "to"))) sp.set(k, v);
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

/** What a row is about: a search shows its query, others their capability or target. */
function subject(e: AuditEventView): string {
  const args = e.arguments as { query?: unknown; q?: unknown } | null;
  const query = typeof args?.query === "string" ? args.query : typeof args?.q === "string" ? args.q : null;
  if (query !== null) return `“${query}”${e.target && !e.target.endsWith(":*") ? ` in ${e.target}` : ""}`;
  return e.capability ?? e.target ?? "";
}

/**
 * A call a script made: face `script`, not the run's own row. The run's row (`script.ran`) is
 * written when the script ends, so newest first it sits right above its calls, which share its
 * request id.
 */
const isScriptCall = (e: AuditEventView) => e.face === "script" && e.operation !== "script.ran";

/** The rows of one script run: its own row and its calls (same request id), oldest first. */
function scriptRunRows(rows: AuditEventView[], event: AuditEventView): AuditEventView[] {
  if (event.face !== "script" || !event.requestId) return [];
  return rows
    .filter((r) => r.face === "script" && r.requestId === event.requestId)
    .sort((a, b) => a.seq - b.seq);
}

/** "2026-12-01 10:42:07": the date too, so a long range reads right. */
const when = (iso: string) => iso.replace("T", " ").slice(0, 19);

function VirtualRows({
  rows,
  names,
  selected,
  onSelect,
}: {
  rows: AuditEventView[];
  names: Map<string, string>;
  selected: number | null;
  onSelect: (seq: number) => void;
}) {
  const box = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - 5);
  const last = Math.min(rows.length, first + VIEWPORT_ROWS + 10);
  const visible = rows.slice(first, last);
  // Arrow keys move the selection (and the detail beside it); the list scrolls to keep it in view.
  function onKeyDown(e: KeyboardEvent<HTMLElement>) {
    const index = rows.findIndex((r) => r.seq === selected);
    const next =
      e.key === "ArrowDown" || e.key === "j"
        ? Math.min(rows.length - 1, index + 1)
        : e.key === "ArrowUp" || e.key === "k"
          ? Math.max(0, index - 1)
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? rows.length - 1
              : null;
    if (next === null || !rows[next]) return;
    e.preventDefault();
    onSelect(rows[next].seq);
    const el = box.current;
    if (!el) return;
    const top = next * ROW_HEIGHT + ROW_HEIGHT; // below the sticky header
    if (top < el.scrollTop + ROW_HEIGHT * 2) el.scrollTop = Math.max(0, top - ROW_HEIGHT * 2);
    else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight)
      el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }
  return (
    <section
      ref={box}
      aria-label="Agent operations, newest first. Arrow keys move between rows."
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
      className="relative overflow-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-sky-600"
      style={{ height: ROW_HEIGHT * (VIEWPORT_ROWS + 1) }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
      data-testid="monitor-rows"
      data-row-count={rows.length}
    >
      <div className="min-w-[50rem]">
        <div
          className={`${GRID} sticky top-0 z-10 border-b border-slate-200 bg-slate-50 px-3 text-xs font-medium text-slate-700`}
          style={{ height: ROW_HEIGHT }}
          aria-hidden="true"
        >
          <span>seq</span>
          <span>time (UTC)</span>
          <span>face</span>
          <span>operation</span>
          <span>what · who</span>
          <span>outcome</span>
          <span className="text-right">latency</span>
        </div>
        <ul style={{ height: rows.length * ROW_HEIGHT }} className="relative">
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
                tabIndex={-1}
                onClick={() => onSelect(e.seq)}
                aria-pressed={selected === e.seq}
                data-testid="monitor-row"
                data-seq={e.seq}
                data-outcome={e.outcome}
                className={`${GRID} h-full w-full border-b border-slate-100 px-3 text-left text-xs ${
                  selected === e.seq ? "bg-sky-100" : "hover:bg-slate-50"
                }`}
              >
                <span className="tabular-nums text-slate-600">#{e.seq}</span>
                <span className="truncate tabular-nums text-slate-700">{when(e.createdAt)}</span>
                <span className="truncate text-slate-700">{e.face}</span>
                <span
                  className="truncate font-medium"
                  title={isScriptCall(e) ? "called by a script" : undefined}
                >
                  {isScriptCall(e) ? <span className="text-slate-500">↳ </span> : null}
                  {e.operation}
                </span>
                <span className="truncate text-slate-700" title={e.target ?? ""}>
                  {subject(e)}{" "}
                  {e.agentId ? (
                    <span className="text-slate-600">· {names.get(e.agentId) ?? e.agentId}</span>
                  ) : e.userId ? (
                    <span className="text-slate-600" data-testid="monitor-actor">
                      · by {names.get(e.userId) ?? e.userId}
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
    </section>
  );
}

function Detail({
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

export function MonitorView({ initial }: { initial: MonitorFilter }) {
  const router = useRouter();
  const pathname = usePathname();
  const [draft, setDraft] = useState<MonitorFilter>(initial);
  const [filter, setFilterState] = useState<MonitorFilter>(initial);
  const [rows, setRows] = useState<AuditEventView[]>([]);
  const [buffer, setBuffer] = useState<AuditEventView[]>([]);
  const [paused, setPaused] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [live, setLive] = useState<"connecting" | "live" | "reconnecting">("connecting");
  const [loadingOlder, setLoadingOlder] = useState(false);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  // A range that ends in the past is history: nothing new can arrive, so no stream is opened.
  const historical =
    filter.range === "custom" && Boolean(filter.to) && new Date(filter.to).getTime() < Date.now();

  const setFilter = useCallback(
    (next: MonitorFilter) => {
      setFilterState(next);
      const qs = urlOf(next);
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [router, pathname],
  );

  const names = useQuery({
    queryKey: ["agent-and-people-names"],
    queryFn: () =>
      apiGet<{
        agents: { id: string; name: string }[];
        people: { id: string; name: string; role: string }[];
      }>("/api/console/agent-names"),
  });
  // Agents and people by id (both are cuids): rows name the agent, or the person who acted.
  const nameOf = useMemo(
    () =>
      new Map([
        ...(names.data?.agents ?? []).map((a): [string, string] => [a.id, a.name]),
        ...(names.data?.people ?? []).map((p): [string, string] => [p.id, `${p.name} (${p.role})`]),
      ]),
    [names.data],
  );

  // Text filters apply after a short pause in typing; selects apply at once.
  useEffect(() => {
    if (TEXT_KEYS.every((k) => draft[k] === filter[k])) return;
    const t = setTimeout(
      () => setFilter({ ...filter, ...Object.fromEntries(TEXT_KEYS.map((k) => [k, draft[k]])) }),
      300,
    );
    return () => clearTimeout(t);
  }, [draft, filter, setFilter]);

  // The range as sent: a preset is fixed when the filter is applied, so paging stays consistent.
  const params = useMemo(() => apiFilter(filter), [filter]);

  const backfill = useQuery({
    queryKey: ["audit-backfill", params],
    queryFn: () =>
      apiGet<{ events: AuditEventView[] }>(`/api/console/audit?${queryString(params, { limit: 500 })}`).then(
        (r) => r.events,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
  const volume = useQuery({
    queryKey: ["audit-volume", params],
    queryFn: () => apiGet<AuditVolume>(`/api/console/audit/volume?${queryString(params)}`),
    // Live: the chart catches up every 15 s (not per row: a burst of thousands must not refetch it).
    refetchInterval: historical ? false : 15_000,
    refetchOnWindowFocus: false,
  });

  // The live stream starts where the backfill ended; EventSource resumes from Last-Event-ID by itself.
  useEffect(() => {
    if (!backfill.data) return;
    setRows(backfill.data);
    setBuffer([]);
    if (historical) return;
    const after = backfill.data[0]?.seq ?? 0;
    const { from: _from, to: _to, ...liveParams } = params;
    const source = new EventSource(`/api/console/stream?${queryString(liveParams, { after })}`);
    setLive("connecting");
    source.onopen = () => setLive("live");
    source.onerror = () => setLive("reconnecting");
    source.addEventListener("audit", (msg) => {
      const event = JSON.parse((msg as MessageEvent<string>).data) as AuditEventView;
      if (pausedRef.current) setBuffer((b) => [event, ...b]);
      else setRows((r) => merge(r, [event]));
    });
    return () => source.close();
  }, [backfill.data, params, historical]);

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
        `/api/console/audit?${queryString(params, { before: oldest, limit: 1000 })}`,
      );
      setRows((cur) => merge(cur, r.events));
    } finally {
      setLoadingOlder(false);
    }
  }

  const selectedEvent = rows.find((e) => e.seq === selected) ?? null;
  const select = (
    key: keyof MonitorFilter,
    labelText: string,
    options: { value: string; label: string }[],
    any = "any",
  ) => (
    <div>
      <label htmlFor={`f-${key}`} className={labelClass}>
        {labelText}
      </label>
      <select
        id={`f-${key}`}
        value={draft[key]}
        onChange={(e) => {
          const next = { ...draft, [key]: e.target.value };
          setDraft(next);
          setFilter({ ...filter, [key]: e.target.value });
        }}
        className={`${inputClass} mt-1`}
      >
        {any ? <option value="">{any}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
  const text = (key: (typeof TEXT_KEYS)[number], labelText: string) => (
    <div>
      <label htmlFor={`f-${key}`} className={labelClass}>
        {labelText}
      </label>
      <input
        id={`f-${key}`}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        className={`${inputClass} mt-1`}
      />
    </div>
  );
  const state = historical ? "history" : paused ? "paused" : live;
  const exportHref = (format: "csv" | "jsonl") =>
    `/api/console/audit/export?${queryString(params, { format })}`;

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
              data-state={state}
              className={`inline-flex items-center gap-1.5 self-center rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${
                state === "live"
                  ? "bg-emerald-50 text-emerald-900 ring-emerald-300"
                  : state === "paused"
                    ? "bg-amber-100 text-amber-950 ring-amber-400"
                    : "bg-slate-100 text-slate-800 ring-slate-300"
              }`}
            >
              <span
                aria-hidden="true"
                className={
                  state === "live"
                    ? "h-2 w-2 animate-pulse rounded-full bg-emerald-600"
                    : state === "paused"
                      ? "h-2.5 w-2.5 border-x-[3px] border-amber-700"
                      : "h-2 w-2 rounded-full bg-slate-500"
                }
              />
              {state === "paused" ? `paused${buffer.length ? ` · ${buffer.length} new` : ""}` : state}
            </span>
            {historical ? null : paused ? (
              <button type="button" className={buttonClass("primary")} onClick={resume}>
                Resume{buffer.length ? ` (${buffer.length} new)` : ""}
              </button>
            ) : (
              <button type="button" className={buttonClass("secondary")} onClick={() => setPaused(true)}>
                Pause
              </button>
            )}
            <a
              className={buttonClass("secondary")}
              href={exportHref("csv")}
              download
              data-testid="export-csv"
            >
              Export CSV
            </a>
            <a
              className={buttonClass("secondary")}
              href={exportHref("jsonl")}
              download
              data-testid="export-jsonl"
            >
              Export JSON lines
            </a>
          </>
        }
      />
      <form
        className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        {select(
          "range",
          "Time range",
          RANGES.filter((r) => r.value !== "").map((r) => ({ value: r.value, label: r.label })),
          "All time",
        )}
        {filter.range === "custom" ? (
          <>
            <div>
              <label htmlFor="f-from" className={labelClass}>
                From (your time)
              </label>
              <input
                id="f-from"
                type="datetime-local"
                value={draft.from}
                onChange={(e) => {
                  setDraft({ ...draft, from: e.target.value });
                  setFilter({ ...filter, from: e.target.value });
                }}
                className={`${inputClass} mt-1`}
              />
            </div>
            <div>
              <label htmlFor="f-to" className={labelClass}>
                To (your time)
              </label>
              <input
                id="f-to"
                type="datetime-local"
                value={draft.to}
                onChange={(e) => {
                  setDraft({ ...draft, to: e.target.value });
                  setFilter({ ...filter, to: e.target.value });
                }}
                className={`${inputClass} mt-1`}
              />
            </div>
          </>
        ) : null}
        {select(
          "agentId",
          "Agent",
          (names.data?.agents ?? []).map((a) => ({ value: a.id, label: a.name })),
        )}
        {select(
          "face",
          "Face",
          FACES.map((f) => ({ value: f, label: f })),
        )}
        {text("operation", "Operation")}
        {select(
          "outcome",
          "Outcome",
          OUTCOME_KINDS.map((o) => ({ value: o, label: o.replaceAll("_", " ") })),
        )}
        {text("target", "Capability or URI")}
        {text("q", "Text")}
      </form>
      <div className="mb-4">{volume.data ? <VolumeChart data={volume.data} /> : null}</div>
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0">
          {backfill.isPending ? (
            <LoadingState label="Loading recent operations…" />
          ) : backfill.error ? (
            <ErrorState error={backfill.error} onRetry={() => backfill.refetch()} />
          ) : rows.length === 0 ? (
            <p
              className="rounded-lg border border-slate-200 bg-white px-3 py-8 text-center text-sm text-slate-600"
              data-testid="empty-state"
            >
              No operations match{historical ? " in this range" : " yet. New ones appear here as agents work"}
              .
            </p>
          ) : (
            <VirtualRows rows={rows} names={nameOf} selected={selected} onSelect={setSelected} />
          )}
          <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs text-slate-600">
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
        <div className="min-w-0">
          {selectedEvent ? (
            <Detail
              event={selectedEvent}
              agentName={selectedEvent.agentId ? nameOf.get(selectedEvent.agentId) : undefined}
              personName={selectedEvent.userId ? nameOf.get(selectedEvent.userId) : undefined}
              run={scriptRunRows(rows, selectedEvent)}
              onSelect={setSelected}
            />
          ) : (
            <p className="text-sm text-slate-600">
              Select a row (or focus the list and use the arrow keys) to see its arguments, outcome, policy
              decision and latency.
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
