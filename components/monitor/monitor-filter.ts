// The monitor's filter as the address carries it. Its own module (not the client component's):
// the server page reads the address with it, and a server component cannot use values that a
// "use client" module exports.
export type MonitorFilter = {
  agentId: string;
  face: string;
  operation: string;
  outcome: string;
  target: string;
  q: string;
  /** A preset ("15m", "1h", "24h", "7d", "30d"), "custom" (from/to below) or "" (everything). */
  range: string;
  from: string;
  to: string;
};
export const EMPTY_MONITOR_FILTER: MonitorFilter = {
  agentId: "",
  face: "",
  operation: "",
  outcome: "",
  target: "",
  q: "",
  range: "",
  from: "",
  to: "",
};
