import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { installPeerStamp, PEER_STAMP_HEADER } from "@/server/gateway/peer-stamp";
import { requestPeer, trustProxySchema } from "@/server/gateway/request-peer";

// The rules behind SIGNPOST_TRUST_PROXY (test/e2e/proxy-trust.test.ts proves them through the
// running app): which header is believed for host, https and the client address, and that the
// socket stamp cannot be forged by a client.

/** Serves one request through a real node:http server and answers what requestPeer made of it. */
async function peerOf(headers: Record<string, string>, env: Record<string, string | undefined>) {
  installPeerStamp();
  const server = createServer((req, res) => {
    const h = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") h.set(k, v);
    res.end(JSON.stringify(requestPeer(h, env)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : 0;
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers });
    return (await res.json()) as { host: string | null; https: boolean; address?: string };
  } finally {
    server.close();
  }
}

describe("request peer: X-Forwarded-* only from a trusted proxy", () => {
  it("SIGNPOST_TRUST_PROXY accepts off, true/1 and a hop count, and refuses anything else", () => {
    for (const [value, hops] of [
      [undefined, 0],
      ["", 0],
      ["0", 0],
      ["false", 0],
      ["1", 1],
      ["TRUE", 1],
      [" 2 ", 2],
      ["12", 12],
    ] as const) {
      expect(trustProxySchema.parse(value), String(value)).toBe(hops);
    }
    for (const bad of ["yes", "-1", "1.5", "loopback", "100", "01"]) {
      expect(trustProxySchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("untrusted: Host and the socket, whatever X-Forwarded-*, X-Real-IP or a forged stamp say", async () => {
    const peer = await peerOf(
      {
        "x-forwarded-host": "evil.test",
        "x-forwarded-proto": "https",
        "x-forwarded-for": "6.6.6.6",
        "x-real-ip": "7.7.7.7",
        [PEER_STAMP_HEADER]: "0123456789abcdef0123456789abcdef https 8.8.8.8",
      },
      {},
    );
    expect(peer.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(peer.https).toBe(false);
    expect(peer.address).toMatch(/127\.0\.0\.1$/);
  });

  it("one trusted hop: the proxy's host and proto, and the address the proxy appended last", async () => {
    const peer = await peerOf(
      {
        "x-forwarded-host": "signpost.example",
        "x-forwarded-proto": "https",
        "x-forwarded-for": "6.6.6.6, 203.0.113.9",
      },
      { SIGNPOST_TRUST_PROXY: "1" },
    );
    expect(peer).toEqual({ host: "signpost.example", https: true, address: "203.0.113.9" });
  });

  it("two trusted hops: the client is the second X-Forwarded-For entry from the right", async () => {
    const peer = await peerOf(
      { "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.5" },
      { SIGNPOST_TRUST_PROXY: "2" },
    );
    expect(peer.address).toBe("203.0.113.9");
    // Fewer entries than hops: the furthest one there is, never something made up.
    const short = await peerOf({ "x-forwarded-for": "203.0.113.9" }, { SIGNPOST_TRUST_PROXY: "5" });
    expect(short.address).toBe("203.0.113.9");
  });

  it("a request without this process's stamp has no known address when untrusted", () => {
    const headers = new Headers({ host: "signpost.test", "x-forwarded-for": "6.6.6.6" });
    expect(requestPeer(headers, {})).toEqual({ host: "signpost.test", https: false, address: undefined });
  });
});
