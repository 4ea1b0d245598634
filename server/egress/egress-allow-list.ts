import ipaddr from "ipaddr.js";

/** One operator exception to the egress policy: a host name or an address range, optionally one port. */
export type EgressAllowEntry =
  | { kind: "host"; host: string; port: number | null; text: string }
  | { kind: "range"; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | null; text: string };

export class EgressConfigError extends Error {}

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host as the policy compares it: lower case, brackets and trailing dots gone (`LOCALHOST.` is `localhost`). */
export function normalizeHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");
}

function parsePort(text: string, entry: string): number {
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535)
    throw new EgressConfigError(`SIGNPOST_EGRESS_ALLOW: "${entry}" has an invalid port (1-65535)`);
  return port;
}

function parseEntry(entry: string): EgressAllowEntry {
  let rest = entry;
  let port: number | null = null;
  // `[v6]:port`, `[v6]`, `v4:port`, `name:port`, `cidr`; a bare IPv6 address has no port.
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(rest);
  if (bracketed) {
    rest = bracketed[1] as string;
    if (bracketed[2] !== undefined) port = parsePort(bracketed[2], entry);
  } else if ((rest.match(/:/g) ?? []).length === 1) {
    const at = rest.lastIndexOf(":");
    port = parsePort(rest.slice(at + 1), entry);
    rest = rest.slice(0, at);
  }
  if (rest.includes("/")) {
    try {
      const range = ipaddr.parseCIDR(rest);
      return { kind: "range", range, port, text: entry };
    } catch {
      throw new EgressConfigError(
        `SIGNPOST_EGRESS_ALLOW: "${entry}" is not a CIDR range (like 10.0.0.0/8 or fd00::/8)`,
      );
    }
  }
  if (ipaddr.isValid(rest)) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(rest) && !ipaddr.IPv6.isValid(rest))
      throw new EgressConfigError(
        `SIGNPOST_EGRESS_ALLOW: "${entry}" is not an address in dotted decimal (like 10.1.2.3)`,
      );
    const address = ipaddr.parse(rest);
    return { kind: "range", range: [address, address.kind() === "ipv4" ? 32 : 128], port, text: entry };
  }
  const host = normalizeHost(rest);
  if (!HOST_NAME.test(host))
    throw new EgressConfigError(
      `SIGNPOST_EGRESS_ALLOW: "${entry}" is not a host name, an address or a CIDR range`,
    );
  return { kind: "host", host, port, text: entry };
}

/**
 * `SIGNPOST_EGRESS_ALLOW`: comma- or space-separated hosts, addresses and CIDR ranges, each
 * optionally with `:port` (`legacy.internal`, `10.0.0.0/8`, `127.0.0.1:4010`, `[::1]:8080`). An
 * invalid entry throws an EgressConfigError naming it, so start-up can refuse to run.
 */
export function parseEgressAllow(text: string | undefined): EgressAllowEntry[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .map((e) => e.trim())
    .filter(Boolean)
    .map(parseEntry);
}
