import { z } from "zod";
import { logger } from "../logger";
import { readPeerStamp } from "./peer-stamp";

/**
 * SIGNPOST_TRUST_PROXY: how many reverse proxies stand in front of Signpost and may be believed
 * about the client. Unset, empty, `0` or `false`: none (X-Forwarded-* is ignored, whoever sent
 * it). `1` or `true`: one proxy. A number n: n proxies in a chain (the client address is the
 * n-th X-Forwarded-For entry from the right).
 */
export const trustProxySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(|0|false|true|[1-9][0-9]?)$/,
    "SIGNPOST_TRUST_PROXY must be 0/false (the default: no proxy), 1/true (one proxy) or the number of proxies in front (up to 99)",
  )
  .optional()
  .transform((value) => {
    if (value === undefined || value === "" || value === "false") return 0;
    return value === "true" ? 1 : Number(value);
  });

let warned = false;

/** The number of trusted proxy hops; an invalid value counts as none (start.ts refuses it outright). */
export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const parsed = trustProxySchema.safeParse(env.SIGNPOST_TRUST_PROXY);
  if (parsed.success) return parsed.data;
  if (!warned) {
    warned = true;
    logger.warn(`${parsed.error.issues[0]?.message}; trusting no proxy`);
  }
  return 0;
}

export type RequestPeer = {
  /** The host the person asked for: the Host header, or the trusted proxy's X-Forwarded-Host. */
  host: string | null;
  /** Whether the person reached us over https (the socket, or the trusted proxy's X-Forwarded-Proto). */
  https: boolean;
  /** The client's address, when it is known from something the client cannot choose. */
  address: string | undefined;
};

function entries(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Who is on the other end of this request, believing X-Forwarded-* only as far as
 * SIGNPOST_TRUST_PROXY says. Untrusted, the answer comes from the Host header and the socket (the
 * peer stamp), never from a header a client can set freely.
 */
export function requestPeer(
  headers: Headers,
  env: Record<string, string | undefined> = process.env,
): RequestPeer {
  const stamp = readPeerStamp(headers);
  const hops = trustedProxyHops(env);
  if (hops === 0) return { host: headers.get("host"), https: stamp?.https ?? false, address: stamp?.address };
  // Each proxy appends the address it saw; counting from the socket (hop 0) towards the client,
  // the first untrusted entry is the client. Earlier entries are whatever the client claimed.
  const chain = [stamp?.address ?? "", ...entries(headers.get("x-forwarded-for")).reverse()];
  const address = chain[Math.min(hops, chain.length - 1)] || undefined;
  // Host and proto are set by the edge proxy, not appended per hop: the last value is the one the
  // nearest trusted proxy passed on (anything before it came from further out).
  const host = entries(headers.get("x-forwarded-host")).at(-1) ?? headers.get("host");
  const proto = entries(headers.get("x-forwarded-proto")).at(-1)?.toLowerCase();
  return { host, https: proto === "https" || (stamp?.https ?? false), address };
}
