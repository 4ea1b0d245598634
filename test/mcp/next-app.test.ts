import { request as httpRequest } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignpostApp, startSignpostApp } from "../e2e/helpers/signpost-app";

function post(url: string, headers: Record<string, string>, body: unknown, method = "POST") {
  const target = new URL(url);
  return new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on("error", reject);
    if (method === "POST") req.write(JSON.stringify(body));
    req.end();
  });
}

/**
 * The real app as `npm start` runs it (Next route handler app/mcp/route.ts, the seeded demo, the
 * legacy service as a child process), reached by an SDK v2 client over Streamable HTTP.
 */
describe("/mcp in the running Next.js app", () => {
  let app: SignpostApp;
  let key: string;
  beforeAll(async () => {
    app = await startSignpostApp();
    key = app.demo.agents.find((a) => a.user === "alice@acme.test")?.key ?? "";
  }, 400_000);
  afterAll(async () => app?.stop());

  it("guards the endpoint: 401 without a key, 403 for a foreign Host, 405 for GET", async () => {
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    const anonymous = await post(`${app.url}/mcp`, {}, list);
    expect(anonymous.status).toBe(401);
    expect(String(anonymous.headers["www-authenticate"])).toMatch(/^Bearer /);
    const rebinding = await post(
      `${app.url}/mcp`,
      { host: "evil.example.com", authorization: `Bearer ${key}` },
      list,
    );
    expect(rebinding.status).toBe(403);
    const get = await post(`${app.url}/mcp`, { authorization: `Bearer ${key}` }, undefined, "GET");
    expect(get.status).toBe(405);
  });

  it("serves the faces to a real client: capability search, an order view, a browse page", async () => {
    const client = new Client(
      { name: "next-test", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(
      // All faces: the test runs a script too (the script face is opt-in).
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp?faces=all`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining(["search_capabilities", "start_action", "navigate", "submit"]),
      );
      const found = await client.callTool({
        name: "search_capabilities",
        arguments: { query: "我要退货退款" },
      });
      expect(
        (found.structuredContent as { results: Array<{ capability: string }> }).results[0]?.capability,
      ).toBe("after_sales");
      const view = await client.callTool({
        name: "get_context",
        arguments: { entity: "order", entity_id: "ord_transit" },
      });
      expect((view.structuredContent as { outcome: string }).outcome).toBe("applied");
      const page = await client.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } });
      expect((page.content as Array<{ text: string }>)[0]?.text).toContain(
        "[after_sales](shop://order/ord_paid/after-sales)",
      );
      // The script sandbox loads its WebAssembly engine inside the built app, too.
      const script = await client.callTool({
        name: "run_script",
        arguments: {
          code: "const p = await navigate('shop://order/ord_paid'); return [p.outcome, typeof process];",
        },
      });
      expect(script.structuredContent).toMatchObject({
        outcome: "applied",
        result: ["applied", "undefined"],
      });
    } finally {
      await client.close();
    }
  });
});
