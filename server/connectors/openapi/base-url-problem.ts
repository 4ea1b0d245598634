import { namesThisMachine } from "../../egress/egress-policy";

/** Where Signpost itself answers: its public URL and the ports it listens on (from the caller). */
export interface SelfAddress {
  origins: string[];
  ports: number[];
}

/**
 * Why a base URL cannot be an imported system's address, or null: only http(s), no credentials
 * in it (they belong in the vault), and never Signpost itself (its public origin, or a local
 * address on one of its ports, in any spelling): a connector pointed at Signpost would let an
 * agent's reads and approved writes call Signpost's own API with a system's credentials. Every
 * other address is the egress policy's to judge when a request is made.
 */
export function baseUrlProblem(text: string, self: SelfAddress): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "the base URL is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return `the base URL must be http(s), not ${url.protocol.replace(":", "")}`;
  if (url.username || url.password)
    return "the base URL holds a user name or password; set credentials as secrets instead";
  if (url.search || url.hash) return "the base URL must not have a query or fragment";
  if (self.origins.some((o) => safeOrigin(o) === url.origin)) return "the base URL is Signpost itself";
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (namesThisMachine(url.hostname) && self.ports.includes(port))
    return "the base URL is Signpost itself (a local address on Signpost's port)";
  return null;
}

function safeOrigin(text: string): string | null {
  try {
    return new URL(text).origin;
  } catch {
    return null;
  }
}
