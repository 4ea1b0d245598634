import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHttpClient } from "@/server/connectors/sdk/http-client";
import { allowEgressTo } from "../helpers/allow-egress";

/**
 * A connector's system that answers without end (a bug, a hostile endpoint behind an allowed
 * address) must not fill Signpost's memory: the SDK client reads no more than its limit and says
 * so, typed; a write's unreadable success stays "may have happened", never "not sent".
 */
describe("the connector SDK's HTTP client reads a bounded answer", () => {
  let streamed = 0;
  const server = createServer((req, res) => {
    if (req.url === "/small") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ok: true }));
      return;
    }
    // An endless body: chunks until the client goes away.
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!res.destroyed && streamed < 256 * 1024 * 1024) {
        streamed += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  let base = "";
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    allowEgressTo(base);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a read larger than the limit is a typed error, and the rest is never read", async () => {
    const client = createHttpClient({ baseUrl: base, apiKey: "k", maxResponseBytes: 1024 * 1024 });
    streamed = 0;
    const answer = await client.request({ method: "GET", path: "/endless" });
    expect(answer).toMatchObject({ kind: "error", code: "answer_too_large" });
    // The server was stopped long before its 256 MiB (socket buffers allow a few MiB beyond the limit).
    expect(streamed).toBeLessThan(64 * 1024 * 1024);
  });

  test("a write whose success cannot be read may have happened: dropped, never unavailable", async () => {
    const client = createHttpClient({ baseUrl: base, apiKey: "k", maxResponseBytes: 1024 * 1024 });
    const answer = await client.request({ method: "POST", path: "/endless", body: {}, idempotencyKey: "k1" });
    expect(answer.kind).toBe("dropped");
  });

  test("an answer within the limit is read as before", async () => {
    const client = createHttpClient({ baseUrl: base, apiKey: "k" });
    expect(await client.request({ method: "GET", path: "/small" })).toMatchObject({
      kind: "ok",
      body: { ok: true },
    });
  });
});
