/**
 * Lets Signpost's egress policy reach a local test server (Prism, the legacy service, a recording
 * proxy), which it refuses by default as loopback: the operator's `SIGNPOST_EGRESS_ALLOW`, set
 * for exactly that host and port, in this process and in every server a test starts after it.
 */
export function allowEgressTo(url: string): void {
  const { host } = new URL(url);
  const entries = (process.env.SIGNPOST_EGRESS_ALLOW ?? "").split(",").filter(Boolean);
  if (!entries.includes(host)) process.env.SIGNPOST_EGRESS_ALLOW = [...entries, host].join(",");
}
