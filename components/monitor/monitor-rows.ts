import type { AuditEventView } from "@/server/gateway/console/list-audit-events";

/** The monitor's rows: their layout, merging, what each is about, a script run's rows. */
export const ROW_HEIGHT = 36;
export const VIEWPORT_ROWS = 16;
export const MAX_ROWS = 50_000;
export const GRID =
  "grid grid-cols-[3.5rem_9.5rem_4rem_9rem_minmax(10rem,1fr)_7rem_3.5rem] items-center gap-2";

/** Newest first, no duplicates: events can arrive from both the backfill and the stream. */
export function merge(current: AuditEventView[], incoming: AuditEventView[]): AuditEventView[] {
  if (incoming.length === 0) return current;
  const seen = new Set(current.map((e) => e.seq));
  const fresh = incoming.filter((e) => !seen.has(e.seq));
  if (fresh.length === 0) return current;
  return [...fresh, ...current].sort((a, b) => b.seq - a.seq).slice(0, MAX_ROWS);
}

/** What a row is about: a search shows its query, others their capability or target. */
export function subject(e: AuditEventView): string {
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
export const isScriptCall = (e: AuditEventView) => e.face === "script" && e.operation !== "script.ran";

/** The rows of one script run: its own row and its calls (same request id), oldest first. */
export function scriptRunRows(rows: AuditEventView[], event: AuditEventView): AuditEventView[] {
  if (event.face !== "script" || !event.requestId) return [];
  return rows
    .filter((r) => r.face === "script" && r.requestId === event.requestId)
    .sort((a, b) => a.seq - b.seq);
}

/** "2026-12-01 10:42:07": the date too, so a long range reads right. */
export const when = (iso: string) => iso.replace("T", " ").slice(0, 19);
