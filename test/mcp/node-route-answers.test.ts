import { Agent, request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "@/app/mcp/route";
import { MAX_REQUEST_BODY_BYTES } from "@/mcp/mcp-http-handler";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { serveRoute } from "../helpers/serve-route";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// serve answers /mcp on node's own request and writes the handler's own answers (a listed tool
// list, refusals) without WHATWG Request/Response (mcp/mcp-node-route.ts), as every MCP test
// world does; the Next route (`next start`, `next dev`) goes through Request → Response. Both
// must answer byte for byte alike.

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Raw> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...init.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on("error", reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/** What both routes must agree on: status, the headers the handler sets, and the body. */
const HANDLER_HEADERS = ["content-type", "www-authenticate", "allow", "retry-after"];
function answerOf(res: Raw) {
  return {
    status: res.status,
    headers: Object.fromEntries(HANDLER_HEADERS.map((name) => [name, res.headers[name]])),
    body: res.body,
  };
}

const LIST = (id: number | string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} });
const LEGACY = { "mcp-protocol-version": "2025-11-25" };

describe("/mcp on serve's node route answers exactly as the SDK path (Request → Response) does", () => {
  let w: McpWorld;
  let nextRoute: Awaited<ReturnType<typeof serveRoute>>;
  let nodeEndpoint: string;
  let requestEndpoint: string;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    // The world serves /mcp as serve does (node route); the Next route file beside it, same instance.
    nodeEndpoint = w.endpoint;
    nextRoute = await serveRoute(mcpRoute);
    requestEndpoint = `${nextRoute.url}/mcp`;
  });
  afterAll(async () => {
    await nextRoute?.close();
    await w?.close();
  });

  /** The answer of an instance that has kept nothing (its answers are the SDK's own), on a Request. */
  const sdkOnly = async (init: Parameters<typeof raw>[1]): Promise<Raw> => {
    const fresh = createSignpostMcp({ db: w.db, publicUrl: "http://localhost:3000" });
    try {
      const response = await fresh.handle(
        new Request("http://localhost:3000/mcp", {
          method: init.method ?? "POST",
          headers: {
            host: "localhost:3000",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...init.headers,
          },
          body: init.body as string | undefined,
        }),
      );
      return {
        status: response.status,
        headers: Object.fromEntries(response.headers),
        body: await response.text(),
      };
    } finally {
      await fresh.close();
    }
  };

  const both = async (init: Parameters<typeof raw>[1], query = "") => {
    const viaRequest = await raw(`${requestEndpoint}${query}`, init);
    const viaNode = await raw(`${nodeEndpoint}${query}`, init);
    return { viaRequest, viaNode };
  };

  it("lists the same tools as a server the SDK built, whether the list was built or kept", async () => {
    // A fresh instance has nothing kept: its answer is the SDK's own, built for this request.
    const sdkAnswer = await sdkOnly({
      headers: { authorization: `Bearer ${w.keys.alice}`, ...LEGACY },
      body: LIST(1),
    });
    expect(sdkAnswer.status).toBe(200);
    const sdkJson = JSON.parse(sdkAnswer.body);

    const headers = { authorization: `Bearer ${w.keys.alice}`, ...LEGACY };
    const built = await raw(nodeEndpoint, { headers, body: LIST(1) });
    const kept = await raw(nodeEndpoint, { headers, body: LIST(1) });
    expect(built.status).toBe(200);
    expect(kept.status).toBe(200);
    expect(kept.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(built.body)).toEqual(sdkJson);
    expect(JSON.parse(kept.body)).toEqual(sdkJson);
    expect(sdkJson.result.tools.map((t: { name: string }) => t.name)).toContain("get_context");
  });

  it("gives a kept list only to a request the SDK answers alike (the same request but for its id)", async () => {
    const key = { authorization: `Bearer ${w.keys.alice}`, ...LEGACY };
    expect((await raw(nodeEndpoint, { headers: key, body: LIST(30) })).status).toBe(200);
    const variants: Array<[string, Parameters<typeof raw>[1], number]> = [
      [
        "without jsonrpc",
        { headers: key, body: JSON.stringify({ id: 31, method: "tools/list", params: {} }) },
        400,
      ],
      [
        "an Accept the 2025 transport refuses",
        { headers: { ...key, accept: "application/json" }, body: LIST(32) },
        406,
      ],
      [
        "another protocol version",
        { headers: { ...key, "mcp-protocol-version": "1999-01-01" }, body: LIST(33) },
        400,
      ],
    ];
    for (const [what, init, status] of variants) {
      const viaNode = answerOf(await raw(nodeEndpoint, init));
      expect(viaNode.status, what).toBe(status);
      expect(viaNode, what).toEqual(answerOf(await sdkOnly(init)));
    }
  });

  it("refuses bad requests with the same status, headers and body", async () => {
    const key = { authorization: `Bearer ${w.keys.alice}` };
    const cases: Array<[string, Parameters<typeof raw>[1], string?]> = [
      ["no credential", { body: LIST(2) }],
      ["unknown key", { headers: { authorization: "Bearer sp_nothing_here" }, body: LIST(3) }],
      ["GET", { method: "GET", headers: key }],
      ["unknown face", { headers: key, body: LIST(4) }, "?faces=nope"],
      [
        "batch too long",
        { headers: key, body: JSON.stringify(Array.from({ length: 51 }, (_, i) => JSON.parse(LIST(i)))) },
      ],
      ["not JSON by Content-Type", { headers: { ...key, "content-type": "text/plain" }, body: LIST(5) }],
      ["not JSON", { headers: key, body: "{" }],
      ["empty body", { headers: key, body: "" }],
      ["body too large", { headers: key, body: Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 32) }],
      ["foreign Host", { headers: { ...key, host: "evil.example.com" }, body: LIST(6) }],
      ["foreign Origin", { headers: { ...key, origin: "http://evil.example.com" }, body: LIST(7) }],
      [
        "unsupported protocol version",
        { headers: { ...key, "mcp-protocol-version": "1999-01-01" }, body: LIST(8) },
      ],
      ["not acceptable", { headers: { ...key, ...LEGACY, accept: "application/json" }, body: LIST(9) }],
      [
        "a notification only",
        {
          headers: { ...key, ...LEGACY },
          body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        },
      ],
      [
        "a tool this face does not have",
        {
          headers: { ...key, ...LEGACY },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 10,
            method: "tools/call",
            params: { name: "nope", arguments: {} },
          }),
        },
      ],
    ];
    for (const [what, init, query] of cases) {
      const { viaRequest, viaNode } = await both(init, query);
      expect(answerOf(viaNode), what).toEqual(answerOf(viaRequest));
      expect(viaNode.status, what).not.toBe(500);
    }
  });

  it("after a body refused for its size, the client's next calls on its kept-alive connections are answered", async () => {
    // One socket, kept alive, as a host's HTTP client pools it: a refused body left unread on it
    // once made its next request wait forever (the server no longer read that socket).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const headers = { authorization: `Bearer ${w.keys.alice}`, ...LEGACY };
    const call = (body: Buffer | string, chunked = false) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(nodeEndpoint);
        const req = httpRequest(
          {
            agent,
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: "POST",
            timeout: 10_000,
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...headers,
              ...(chunked ? {} : { "content-length": String(Buffer.byteLength(body)) }),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("timeout", () => req.destroy(new Error("no answer in 10 s")));
        // A refused upload may meet the closed socket: the answer, read before, is what counts.
        req.on("error", (error) => (req.writableFinished ? undefined : reject(error)));
        if (chunked) for (let i = 0; i < 5; i++) req.write(Buffer.alloc(MAX_REQUEST_BODY_BYTES / 4, 32));
        req.end(chunked ? undefined : body);
      });
    try {
      for (const chunked of [false, true]) {
        expect(await call(Buffer.alloc(MAX_REQUEST_BODY_BYTES + 1, 32), chunked)).toBe(413);
        for (const id of [40, 41, 42]) expect(await call(LIST(id))).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it("refuses a revoked key on its next call, even for a tool list it was answered from the cache", async () => {
    const headers = { authorization: `Bearer ${w.keys.sam}`, ...LEGACY };
    expect((await raw(nodeEndpoint, { headers, body: LIST(20) })).status).toBe(200);
    expect((await raw(nodeEndpoint, { headers, body: LIST(21) })).status).toBe(200);
    const agent = await w.db.agent.findFirstOrThrow({
      where: { tenantId: "acme", user: { email: "sam@acme.test" } },
    });
    await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: new Date() } });
    try {
      const revoked = await raw(nodeEndpoint, { headers, body: LIST(22) });
      expect(revoked.status).toBe(401);
      expect(String(revoked.headers["www-authenticate"])).toContain('error="invalid_token"');
    } finally {
      await w.db.agent.update({ where: { id: agent.id }, data: { revokedAt: null } });
    }
  });
});
