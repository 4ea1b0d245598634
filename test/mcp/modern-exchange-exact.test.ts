import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type AuthInfo, createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { parseFaces } from "@/mcp/faces";
import { createMcpHttpHandler, MAX_REQUEST_BODY_BYTES } from "@/mcp/mcp-http-handler";
import { createMcpServerPool } from "@/mcp/mcp-server-pool";
import { MODERN_PROTOCOL_VERSION, modernServerOptions, modernToolRoute } from "@/mcp/modern-json-leg";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// 2026-07-28 tool calls and lists are answered on /mcp's own leg (mcp/modern-json-leg.ts): on
// kept servers, without WHATWG Request/Response. Every answer must be the one the SDK's own
// createMcpHandler gives, byte for byte: the requests an SDK v2 client really sends, and every
// variant the leg must leave to the SDK (wrong or missing protocol headers, a Base64 Mcp-Name,
// another revision, a bad envelope, notifications, batches, bad JSON). What differs by nature
// between two runs — a new action's id, a freshly signed requestState — is masked.

type Sent = { headers: Record<string, string>; body: string };
type Answer = { status: number; type: string | null; body: string };

function mask(text: string): string {
  return (
    text
      .replace(/"requestState":"[^"]*"/g, '"requestState":"*"')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>")
      // A new row's id (an action, its approval) wherever it is shown: ids, links, the screen's markup.
      .replace(/\b[a-z][a-z0-9]{23}\b/g, "<id>")
  );
}

describe("2026-07-28 requests on /mcp answer exactly as the SDK's createMcpHandler does", () => {
  let w: McpWorld;
  let context: TrustedContext;
  const sent: Sent[] = [];
  let recorder: Client;

  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    const identity = await w.mcp.authenticate(w.keys.alice);
    if (!identity) throw new Error("alice's key did not resolve");
    context = identity.context;
    // A real SDK v2 client negotiating 2026-07-28, as a host that can elicit: what it sends is recorded.
    recorder = new Client(
      { name: "recorder", version: "1.0.0" },
      {
        versionNegotiation: { mode: "auto" },
        capabilities: { elicitation: { form: {}, url: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await recorder.connect(
      new StreamableHTTPClientTransport(new URL(w.endpoint), {
        requestInit: { headers: { Authorization: `Bearer ${w.keys.alice}` } },
        fetch: async (url, init) => {
          sent.push({
            headers: Object.fromEntries(new Headers(init?.headers)),
            body: String(init?.body ?? ""),
          });
          return fetch(url, init);
        },
      }),
    );
  });
  afterAll(async () => {
    await recorder?.close();
    await w?.close();
  });

  /** The last request the recorder sent, after `act`. */
  async function record(act: () => Promise<unknown>): Promise<Sent> {
    const before = sent.length;
    await act();
    const found = sent[sent.length - 1];
    if (!found || sent.length === before) throw new Error("the client sent nothing");
    return found;
  }

  const request = (s: Sent) =>
    new Request("http://localhost:3000/mcp", {
      method: "POST",
      headers: { ...s.headers, host: "localhost:3000" },
      body: s.body,
    });
  const read = async (response: Response): Promise<Answer> => ({
    status: response.status,
    type: response.headers.get("content-type"),
    body: await response.text(),
  });

  /** What the SDK's own handler answers, on a server of alice's built for this request alone. */
  const stock = createMcpHandler(() => w.mcp.serverFor(context, parseFaces(null) ?? []), {
    legacy: "stateless",
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
  });
  const auth = (): AuthInfo => ({ token: "[agent key]", clientId: "alice", scopes: [] });
  const viaSdk = async (s: Sent) => read(await stock.fetch(request(s), { authInfo: auth() }));
  const viaSignpost = async (s: Sent) => read(await w.mcp.handle(request(s)));

  const callTool = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    record(() =>
      recorder.callTool({ name, arguments: args, ...extra } as never, { allowInputRequired: true } as never),
    );

  it("what a real client sends — lists, reads, refusals, input_required — takes the leg, answered as the SDK answers", async () => {
    const cases: Array<[string, Sent]> = [
      ["tools/list", await record(() => recorder.listTools())],
      ["get_context", await callTool("get_context", { entity: "order", entity_id: "ord_paid" })],
      ["search_capabilities", await callTool("search_capabilities", { query: "refund my order" })],
      ["navigate", await callTool("navigate", { uri: "shop://order/ord_paid" })],
      ["arguments that fail the schema", await callTool("get_context", { entity: 7 })],
      ["an unknown record", await callTool("get_context", { entity: "order", entity_id: "ord_nope" })],
      ["a tool that is not there", await callTool("nope", {}).catch(() => sent[sent.length - 1] as Sent)],
      [
        "input_required: a form for the missing fields",
        await callTool("start_action", { capability: "after_sales", entity_id: "ord_paid" }),
      ],
      [
        "a retried round with a forged requestState",
        await callTool(
          "start_action",
          { capability: "after_sales", entity_id: "ord_paid" },
          {
            requestState: "sp1.e30.AAAA",
            inputResponses: { fields: { action: "accept", content: { reason: "x" } } },
          },
        ),
      ],
    ];
    const built = w.mcp.serversBuilt();
    for (const [what, s] of cases) {
      expect(modernToolRoute(request(s), JSON.parse(s.body)), `${what} takes the leg`).toBeDefined();
      const sdk = await viaSdk(s);
      const ours = await viaSignpost(s);
      expect(sdk.status, what).not.toBe(500);
      expect({ ...ours, body: mask(ours.body) }, what).toEqual({ ...sdk, body: mask(sdk.body) });
    }
    // Answered on kept servers: the recorder's, and at most one more (a server is given back a
    // turn of the event loop after its answer, which calls made back to back can beat).
    expect(w.mcp.serversBuilt() - built).toBeLessThanOrEqual(1);
  });

  it("a retried round with the person's answers advances the action, as through the SDK", async () => {
    const first = await callTool("start_action", { capability: "after_sales", entity_id: "ord_paid" });
    // Two flows, one per path: a requestState is spent by the round that uses it.
    const round = async (via: (s: Sent) => Promise<Answer>) => {
      const asked = await via(first);
      const state = (JSON.parse(asked.body) as { result?: { requestState?: string } }).result?.requestState;
      expect(state).toBeTruthy();
      const body = JSON.parse(first.body) as { params: Record<string, unknown> };
      body.params.requestState = state;
      body.params.inputResponses = {
        fields: { action: "accept", content: { reason: "changed my mind" } },
      };
      const retried = { headers: first.headers, body: JSON.stringify(body) };
      expect(modernToolRoute(request(retried), body)).toBeDefined();
      return [asked, await via(retried)] as const;
    };
    const sdk = await round(viaSdk);
    const ours = await round(viaSignpost);
    for (const [i, answer] of ours.entries()) {
      const expected = sdk[i] as Answer;
      expect({ ...answer, body: mask(answer.body) }).toEqual({ ...expected, body: mask(expected.body) });
    }
    expect(ours[1].body).toContain("changed my mind");
  });

  it("every variant — wrong or missing headers, other revisions, notifications, batches, bad JSON — answers as the SDK answers", async () => {
    const call = await callTool("get_context", { entity: "order", entity_id: "ord_paid" });
    const body = JSON.parse(call.body) as {
      params: Record<string, unknown> & { _meta: Record<string, unknown> };
    };
    const withHeaders = (headers: Record<string, string | undefined>, b: unknown = body): Sent => {
      const merged: Record<string, string> = {};
      for (const [name, value] of Object.entries({ ...call.headers, ...headers }))
        if (value !== undefined) merged[name] = value;
      return { headers: merged, body: typeof b === "string" ? b : JSON.stringify(b) };
    };
    const envelope = (changes: Record<string, unknown>) => ({
      ...body,
      params: { ...body.params, _meta: { ...body.params._meta, ...changes } },
    });
    const b64 = `=?base64?${Buffer.from("get_context").toString("base64")}?=`;
    // [what, the request, whether the leg answers it (else the SDK's own handler does)]
    const variants: Array<[string, Sent, boolean?]> = [
      ["no Mcp-Name", withHeaders({ "mcp-name": undefined })],
      ["another Mcp-Name", withHeaders({ "mcp-name": "navigate" })],
      ["a Base64 Mcp-Name", withHeaders({ "mcp-name": b64 })],
      ["a bad Base64 Mcp-Name", withHeaders({ "mcp-name": "=?base64?***?=" })],
      ["Mcp-Name with spaces around it", withHeaders({ "mcp-name": "  get_context\t" }), true],
      ["no Mcp-Method", withHeaders({ "mcp-method": undefined })],
      ["another Mcp-Method", withHeaders({ "mcp-method": "tools/list" })],
      ["no MCP-Protocol-Version", withHeaders({ "mcp-protocol-version": undefined })],
      ["a 2025 header on a 2026 envelope", withHeaders({ "mcp-protocol-version": "2025-11-25" })],
      [
        "another revision",
        withHeaders(
          { "mcp-protocol-version": "2099-01-01" },
          envelope({ "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
        ),
      ],
      ["a bad envelope", withHeaders({}, envelope({ "io.modelcontextprotocol/clientInfo": 7 }))],
      [
        "a modern header without an envelope",
        withHeaders({}, { ...body, params: { name: "get_context", arguments: body.params.arguments } }),
      ],
      ["a name that is not a string", withHeaders({}, { ...body, params: { ...body.params, name: 7 } })],
      [
        "arguments that are an array",
        withHeaders({}, { ...body, params: { ...body.params, arguments: [1] } }),
        true,
      ],
      [
        "a notification",
        withHeaders(
          { "mcp-method": "notifications/cancelled", "mcp-name": undefined },
          {
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: 1, _meta: body.params._meta },
          },
        ),
      ],
      ["a batch with a 2026 request", withHeaders({}, [body])],
      ["a posted response", withHeaders({}, { jsonrpc: "2.0", id: 5, result: {} })],
      ["bad JSON", withHeaders({}, "{")],
      [
        "another method",
        withHeaders({ "mcp-method": "ping", "mcp-name": undefined }, { ...body, method: "ping" }),
      ],
    ];
    for (const [what, s, leg = false] of variants) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(s.body);
      } catch {
        parsed = undefined;
      }
      expect(modernToolRoute(request(s), parsed) !== undefined, `${what}: on the leg`).toBe(leg);
      const sdk = await viaSdk(s);
      const ours = await viaSignpost(s);
      expect(ours, what).toEqual(sdk);
    }
  });

  it("a call that sends a notification before its result streams it, as the SDK does", async () => {
    // None of Signpost's tools notify mid-call; a server of the test's own does.
    const build = (modern: boolean) => {
      const server = new McpServer(
        { name: "stream-test", version: "1.0.0" },
        { capabilities: { tools: {} }, ...(modern ? modernServerOptions() : {}) },
      );
      server.registerTool("noisy", { inputSchema: z.object({}) }, async (_args, ctx) => {
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: "p", progress: 1, total: 2 },
        });
        return { content: [{ type: "text", text: "done" }] };
      });
      return server;
    };
    const pool = createMcpServerPool();
    const handle = createMcpHttpHandler<{ who: string }>({
      authenticate: async (key) => (key === "sp_stream" ? { context: { who: "t" }, clientId: "t" } : null),
      createServer: (_c, _f, _r, scope) =>
        scope.reusable ? pool.take(scope.era, () => build(scope.era === "modern")) : build(false),
      releaseServer: (server) => pool.give(server),
      allowedHostnames: ["localhost"],
    });
    const sdkOnly = createMcpHandler(() => build(false), { legacy: "stateless" });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const s: Sent = {
      headers: {
        authorization: "Bearer sp_stream",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
        "mcp-method": "tools/call",
        "mcp-name": "noisy",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "noisy", arguments: {}, _meta: meta },
      }),
    };
    for (let i = 0; i < 2; i++) {
      const ours = await read(await handle(request(s)));
      const sdk = await read(await sdkOnly.fetch(request(s)));
      expect(ours.type).toBe("text/event-stream");
      expect(ours).toEqual(sdk);
      // Given back once its stream is over: the next call is answered on the same server.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(pool.built()).toBe(1);
  });
});
