"use client";
import { type KeyboardEvent, useRef, useState } from "react";
import type { AuditEventView } from "@/server/gateway/console/list-audit-events";
import { Badge } from "../ui";
import { GRID, isScriptCall, ROW_HEIGHT, subject, VIEWPORT_ROWS, when } from "./monitor-rows";

/** Only the rows in view are rendered (up to MAX_ROWS kept), with keyboard selection. */
export function VirtualRows({
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
