import { networkInterfaces } from "node:os";
import ipaddr from "ipaddr.js";
import { type EgressAllowEntry, normalizeHost, parseEgressAllow } from "./egress-allow-list";

/**
 * Ports Signpost itself listens on (noted by whoever starts a listener, plus PORT) and origins it
 * answers on (its public URL): never a destination, whatever the allow list says. Kept on
 * globalThis because Next.js bundles its own copy of this module beside the server's.
 */
const SELF = Symbol.for("signpost.egress.self");
const shared = globalThis as { [SELF]?: { ports: Set<number>; origins: Set<string> } };
if (!shared[SELF]) shared[SELF] = { ports: new Set(), origins: new Set() };
const self = shared[SELF];
const selfPorts = self.ports;
const selfOrigins = self.origins;

export function noteSelfAddress(address: { port?: number; origin?: string }): void {
  if (address.port) selfPorts.add(address.port);
  if (address.origin) {
    try {
      selfOrigins.add(new URL(address.origin).origin);
    } catch {
      // not a URL: nothing to note
    }
  }
}

/**
 * A listener that closed: its port is no longer Signpost's, and the system may give it to another
 * service (a connector's) that must then be reachable. Tests start and close many listeners in one
 * process, whose ports the system hands out again.
 */
export function forgetSelfPort(port: number): void {
  selfPorts.delete(port);
  decided = null;
}

function currentSelfPorts(): Set<number> {
  const ports = new Set(selfPorts);
  const port = Number(process.env.PORT);
  if (Number.isInteger(port) && port > 0) ports.add(port);
  notePublicUrl();
  return ports;
}

let notedPublicUrl: string | undefined;

/** SIGNPOST_PUBLIC_URL among Signpost's own origins: parsed once per value, not per request. */
function notePublicUrl(url = process.env.SIGNPOST_PUBLIC_URL): void {
  if (!url || url === notedPublicUrl) return;
  noteSelfAddress({ origin: url });
  notedPublicUrl = url;
}

let cached: { text: string; entries: EgressAllowEntry[] } | null = null;

/** The operator's allow list, parsed once per value of SIGNPOST_EGRESS_ALLOW (start-up validated it). */
export function egressAllowList(): EgressAllowEntry[] {
  const text = process.env.SIGNPOST_EGRESS_ALLOW ?? "";
  if (cached?.text !== text) cached = { text, entries: parseEgressAllow(text) };
  return cached.entries;
}

/**
 * The address as policy sees it: an IPv4-mapped (`::ffff:0:0/96`) or IPv4-compatible (`::/96`,
 * `[::127.0.0.1]`) IPv6 address is the IPv4 address it carries. ipaddr.js calls the second
 * `unicast`, and a stack that still routes it reaches the IPv4 address; only `::` and `::1` keep
 * their own names.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = normalizeHost(address);
  if (!ipaddr.isValid(bare)) return null;
  const parsed = ipaddr.process(bare);
  if (parsed.kind() !== "ipv6") return parsed;
  const parts = (parsed as ipaddr.IPv6).parts;
  const compatible = parts.slice(0, 6).every((p) => p === 0) && !(parts[6] === 0 && (parts[7] ?? 0) <= 1);
  return compatible ? new ipaddr.IPv4(parsed.toByteArray().slice(12)) : parsed;
}

/** How many answers each memo below keeps (all dropped at once past this). */
const MAX_DECIDED = 1000;

/** A literal IP address in a URL host (`[::ffff:7f00:1]`, `127.0.0.1`), else null. */
export function literalAddress(host: string): string | null {
  // Asked for every request's host, mostly the same few: kept (a pure function of the text).
  const known = literals.get(host);
  if (known !== undefined) return known;
  const bare = normalizeHost(host);
  const literal = ipaddr.IPv4.isValidFourPartDecimal(bare) || ipaddr.IPv6.isValid(bare) ? bare : null;
  if (literals.size >= MAX_DECIDED) literals.clear();
  literals.set(host, literal);
  return literal;
}
const literals = new Map<string, string | null>();

/**
 * Only globally routable unicast is reachable by default: ipaddr.js names every special range
 * (loopback, private, linkLocal, carrierGradeNat, uniqueLocal, multicast, unspecified, reserved,
 * 6to4, teredo, NAT64…), so anything but `unicast` is refused, including ranges added later.
 */
function publicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.range() === "unicast";
}

function entryAllows(
  entry: EgressAllowEntry,
  host: string,
  address: ipaddr.IPv4 | ipaddr.IPv6,
  port: number,
): boolean {
  if (entry.port !== null && entry.port !== port) return false;
  if (entry.kind === "host") return entry.host === host;
  const [range] = entry.range;
  return address.kind() === range.kind() && address.match(entry.range);
}

let interfaces: { at: number; addresses: Set<string> } | null = null;

/** This machine's interface addresses (re-read every minute: interfaces come and go). */
function interfaceAddresses(): Set<string> {
  if (!interfaces || Date.now() - interfaces.at > 60_000) {
    const addresses = new Set<string>();
    for (const list of Object.values(networkInterfaces()))
      for (const a of list ?? []) {
        const bare = a.address.replace(/%.*$/, "");
        if (ipaddr.isValid(bare)) addresses.add(ipaddr.process(bare).toString());
      }
    interfaces = { at: Date.now(), addresses };
  }
  return interfaces.addresses;
}

/**
 * Whether the address is this machine's: loopback, unspecified, or one of its interfaces (a
 * Signpost listening on 0.0.0.0 answers on its LAN address too, which an allowed range may cover).
 */
function localAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const range = address.range();
  return range === "loopback" || range === "unspecified" || interfaceAddresses().has(address.toString());
}

/**
 * Why a connection to `host` (as the URL names it) at `address`:`port` is refused, or null.
 * Signpost's own ports on a local address and its public origin are refused even when an
 * operator allowed the host: a connector pointed at Signpost would call its own API.
 */
export function egressRefusal(host: string, address: string, port: number, protocol: string): string | null {
  // Every connector request asks this for the same few destinations; parsing the address and
  // copying the port set took ~0.05 ms a request. An answer stands while what it was decided on
  // does: the variables, Signpost's own ports and origins (a forgotten port clears it) and the
  // interface list (re-read every minute).
  notePublicUrl();
  const basis = `${process.env.SIGNPOST_EGRESS_ALLOW}\u0000${process.env.PORT}\u0000${selfPorts.size}\u0000${selfOrigins.size}`;
  const local = interfaceAddresses();
  if (decided?.basis !== basis || decided.interfaces !== local)
    decided = { basis, interfaces: local, answers: new Map() };
  const key = `${protocol}\u0000${host}\u0000${address}\u0000${port}`;
  const known = decided.answers.get(key);
  if (known !== undefined) return known;
  const answer = decideRefusal(host, address, port, protocol, currentSelfPorts());
  if (decided.answers.size >= MAX_DECIDED) decided.answers.clear();
  decided.answers.set(key, answer);
  return answer;
}

let decided: { basis: string; interfaces: Set<string>; answers: Map<string, string | null> } | null = null;

function decideRefusal(
  host: string,
  address: string,
  port: number,
  protocol: string,
  ports: Set<number>,
): string | null {
  const name = normalizeHost(host);
  const parsed = parseAddress(address);
  if (!parsed) return `"${address}" is not an IP address`;
  const origin = `${protocol}//${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}${
    (protocol === "https:" && port === 443) || (protocol === "http:" && port === 80) ? "" : `:${port}`
  }`;
  if (selfOrigins.has(origin.toLowerCase())) return "it is Signpost itself (its public origin)";
  if (localAddress(parsed) && ports.has(port)) return "it is Signpost itself (its own port)";
  if (egressAllowList().some((entry) => entryAllows(entry, name, parsed, port))) return null;
  if (!publicAddress(parsed)) return `${parsed.toString()} is in a ${parsed.range()} range`;
  return null;
}

/** Names refused before any lookup (RFC 6761: `localhost` and its subdomains are always this machine). */
export function refusedName(host: string): string | null {
  const name = normalizeHost(host);
  if (name === "localhost" || name.endsWith(".localhost")) {
    const allowed = egressAllowList().some((e) => e.kind === "host" && e.host === name);
    return allowed ? null : `${name} is this machine`;
  }
  return null;
}

/**
 * Whether a URL host names this machine in any spelling: `localhost`, `localhost.`,
 * `*.localhost`, `127.0.0.5`, `[::1]`, `[::ffff:7f00:1]`, `0.0.0.0`, `[::]`.
 */
export function namesThisMachine(host: string): boolean {
  const name = normalizeHost(host);
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  const literal = literalAddress(name);
  const parsed = literal ? parseAddress(literal) : null;
  return !!parsed && localAddress(parsed);
}
