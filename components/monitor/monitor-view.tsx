"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { OUTCOME_KINDS } from "@/server/connectors/sdk/outcome";
import type { AuditEventView, AuditVolume } from "@/server/gateway/console/list-audit-events";
import { apiGet } from "../api-client";
import { buttonClass, ErrorState, inputClass, LoadingState, labelClass, PageHeader } from "../ui";
import { VolumeChart } from "../volume-chart";
import { EventDetail } from "./event-detail";
import type { MonitorFilter } from "./monitor-filter";
import { apiFilter, FACES, queryString, RANGES, TEXT_KEYS, urlOf } from "./monitor-query";
import { merge, scriptRunRows } from "./monitor-rows";
import { VirtualRows } from "./virtual-rows";

/**
 * The live monitor: every agent and console call of the tenant as it happens, filtered (saved in
 * the address), with the volume over time and one call's detail. Its parts: virtual-rows.tsx,
 * event-detail.tsx, monitor-rows.ts and monitor-query.ts.
 */
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
            <EventDetail
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
