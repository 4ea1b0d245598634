import type { MonitorFilter } from "./monitor-filter";

/** The monitor's filter as the API and the address bar take it. */
export const TEXT_KEYS = ["operation", "target", "q"] as const;
export const FACES = ["actions", "browse", "script", "console", "cli", "system"];
export const RANGES: { value: string; label: string; ms?: number }[] = [
  { value: "", label: "All time" },
  { value: "15m", label: "Last 15 minutes", ms: 15 * 60_000 },
  { value: "1h", label: "Last hour", ms: 3_600_000 },
  { value: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { value: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { value: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
  { value: "custom", label: "Custom range" },
];

/** The API's filter: presets become a `from` (computed when the filter is applied); custom sends both. */
export function apiFilter(f: MonitorFilter, now = Date.now()): Record<string, string> {
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

export function queryString(
  params: Record<string, string>,
  extra: Record<string, string | number> = {},
): string {
  const sp = new URLSearchParams(params);
  for (const [k, v] of Object.entries(extra)) sp.set(k, String(v));
  return sp.toString();
}

/** The address keeps the filter as typed (a preset stays a preset), so a shared link means the same. */
export function urlOf(f: MonitorFilter): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(f))
    if (v && !(f.range !== "custom" && (k === "from" || k === "to"))) sp.set(k, v);
  return sp.toString();
}
