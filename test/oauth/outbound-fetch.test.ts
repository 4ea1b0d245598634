import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import { EGRESS_FAILURE } from "@/server/egress/egress-fetch";
import { outboundFetch } from "@/server/oauth/outbound-fetch";

// OAuth's requests out (Client ID Metadata Documents, the company's OpenID provider) obey the
// one egress policy: a loopback or private target is refused before anything is sent.
describe("OAuth's outbound requests go through the egress policy", () => {
  test("a host document on loopback, a metadata address or a private range is refused; nothing reaches it", async () => {
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      for (const url of [
        `https://localhost:${port}/client.json`,
        `http://127.0.0.1:${port}/.well-known/openid-configuration`,
        `http://[::ffff:7f00:1]:${port}/jwks`,
        "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.1/token",
      ])
        await expect(outboundFetch(url), url).rejects.toThrow(EGRESS_FAILURE);
      expect(reached).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
