import { randomBytes, timingSafeEqual } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * The one header that says what the TCP peer was. Next.js's route handlers only see a web
 * `Request`, never the socket, and `next start` fills X-Forwarded-For from the socket only when
 * the client sent none (`??=`), so that header is whatever the client chose. This stamp is written
 * by this process from the socket itself, over any value a client sent under the same name.
 */
export const PEER_STAMP_HEADER = "x-signpost-peer";

export type PeerStamp = { address: string | undefined; https: boolean };

// A per-process random token inside the stamp: a request that reached the server before the hook
// was installed keeps whatever the client wrote under the header, and this tells the two apart.
const holder = globalThis as typeof globalThis & { __signpostPeerStampToken?: string };

/**
 * Stamps every HTTP request this process serves with its socket's address and whether the socket
 * was TLS. Called from instrumentation.ts, so it holds however Next.js was started. Uses Node's
 * `http.server.request.start` diagnostics channel, which runs before the request reaches Next.js.
 * Idempotent.
 */
export function installPeerStamp(): void {
  if (holder.__signpostPeerStampToken) return;
  const token = randomBytes(16).toString("hex");
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    const tls = (socket as Socket & { encrypted?: boolean }).encrypted === true;
    request.headers[PEER_STAMP_HEADER] = `${token} ${tls ? "https" : "http"} ${socket.remoteAddress ?? "-"}`;
  });
  holder.__signpostPeerStampToken = token;
}

/** The stamp of this request, or null when it carries none this process wrote (no hook, a forgery). */
export function readPeerStamp(headers: Headers): PeerStamp | null {
  const token = holder.__signpostPeerStampToken;
  const value = headers.get(PEER_STAMP_HEADER);
  if (!token || !value) return null;
  const [given = "", proto, address] = value.split(" ");
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  return { address: address && address !== "-" ? address : undefined, https: proto === "https" };
}
