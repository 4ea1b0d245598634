import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REQUEST_BODY_BYTES } from "@/mcp/mcp-http-handler";
import { mcpNodeRoute } from "@/mcp/mcp-node-route";
import { createSignpostMcp } from "@/mcp/signpost-mcp";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// serve answers /mcp on node's own request and writes the handler's own answers (a listed tool
// list, refusals) without WHATWG Request/Response (mcp/mcp-node-route.ts); the Next route and
// every other test go through Request → Response. Both must answer byte for byte alike.

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
  let server: Server;
  let nodeEndpoint: string;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    const route = mcpNodeRoute(() => w.mcp.answer);
    server = createServer((req, res) => {
      void route(req, res).then((answered) => {
        if (!answered) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    nodeEndpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
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
    const viaRequest = await raw(`${w.endpoint}${query}`, init);
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
