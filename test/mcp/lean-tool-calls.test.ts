import {
  createMcpHandler,
  InMemoryTransport,
  inputRequired,
  type JSONRPCMessage,
  McpServer,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { isPlainToolCall, leanToolCallCapabilities, leanToolCalls } from "@/mcp/lean-tool-calls";
import { MODERN_PROTOCOL_VERSION, modernServerOptions } from "@/mcp/modern-json-leg";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// Signpost's servers answer tools/call without the SDK's repeated checks (mcp/lean-tool-calls.ts):
// the request validated once instead of twice, and the result of a read not re-validated. What
// an agent can send and what it gets back must be exactly what a stock server answers, refusals
// included: every request below is answered by a stock server and a lean one, in both protocol
// eras, and the two answers compared byte for byte.

type Message = Record<string, unknown>;

/** Each JSON-RPC message answered by `server` in the 2025 era (no handshake: a stateless exchange). */
async function legacyAnswers(server: McpServer, messages: Message[]): Promise<string[]> {
  const [client, end] = InMemoryTransport.createLinkedPair();
  const answers = new Map<unknown, string>();
  client.onmessage = (message: JSONRPCMessage) => {
    if ("id" in message) answers.set(message.id, JSON.stringify(message));
  };
  await server.connect(end);
  await client.start();
  for (const message of messages) await client.send(message as JSONRPCMessage);
  for (let i = 0; i < 200 && answers.size < messages.length; i++) await new Promise((r) => setTimeout(r, 5));
  await server.close();
  return messages.map((message) => answers.get(message.id) ?? "(no answer)");
}

const META = {
  "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL_VERSION,
  "io.modelcontextprotocol/clientInfo": { name: "lean-test", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

/** Each message answered by the SDK's createMcpHandler on servers from `build`, in the 2026-07-28 era. */
async function modernAnswers(build: () => McpServer, messages: Message[]): Promise<string[]> {
  const handler = createMcpHandler(build, { legacy: "stateless" });
  const answers: string[] = [];
  for (const message of messages) {
    const params = (message.params ?? {}) as Record<string, unknown>;
    const name = typeof params.name === "string" ? params.name : undefined;
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN_PROTOCOL_VERSION,
          "mcp-method": String(message.method),
          ...(name !== undefined ? { "mcp-name": name } : {}),
        },
        body: JSON.stringify({
          ...message,
          params: { ...params, _meta: { ...META, ...(params._meta ?? {}) } },
        }),
      }),
    );
    answers.push(`${response.status} ${await response.text()}`);
  }
  return answers;
}

const call = (id: number, name: unknown, args?: unknown, more: Record<string, unknown> = {}): Message => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...more },
});

describe("tools/call without the SDK's repeated checks answers exactly as a stock server", () => {
  /** A server whose tools return every shape of result the SDK's checks treat differently. */
  function buildServer(lean: boolean, modern: boolean): McpServer {
    const capabilities = { tools: {} };
    const server = new McpServer(
      { name: "lean-test", version: "1.0.0" },
      {
        capabilities: lean ? leanToolCallCapabilities(capabilities) : capabilities,
        ...(modern ? modernServerOptions() : {}),
      },
    );
    if (lean) leanToolCalls(server);
    const text = (value: string) => [{ type: "text" as const, text: value }];
    const results: Record<string, unknown> = {
      text: { content: text("hi") },
      structured: { content: text("s"), structuredContent: { b: 1, a: [1, { c: null }], u: undefined } },
      flagged: { content: text("no"), isError: true },
      meta: { content: text("m"), structuredContent: { a: 1 }, _meta: { ui: { x: 1 }, progressToken: "p" } },
      unordered: { structuredContent: { a: 1 }, content: text("u") },
      contentless: { structuredContent: { a: 1 } },
      annotated: { content: [{ type: "text", text: "a", annotations: { priority: 0.5 } }] },
      image: { content: [{ type: "image", data: "aGk=", mimeType: "image/png" }] },
      extra: { content: text("e"), extra: 1 },
      broken: { content: "not a list" },
      bad_block: { content: [{ type: "text", text: 7 }] },
      bad_flag: { content: text("f"), isError: "yes" },
      not_an_object: { content: text("x"), structuredContent: [1, 2] },
    };
    for (const [name, result] of Object.entries(results))
      server.registerTool(name, { inputSchema: z.object({}).passthrough() }, async () => result as never);
    server.registerTool("throws", { inputSchema: z.object({}) }, async () => {
      throw new Error("it broke");
    });
    server.registerTool("strict", { inputSchema: z.object({ n: z.number() }).strict() }, async ({ n }) => ({
      content: text(String(n)),
    }));
    server.registerTool("asks", { inputSchema: z.object({}) }, async () =>
      inputRequired({
        inputRequests: {
          fields: inputRequired.elicit({
            message: "Need a",
            requestedSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          }),
        },
      }),
    );
    return server;
  }

  const tools = [
    "text",
    "structured",
    "flagged",
    "meta",
    "unordered",
    "contentless",
    "annotated",
    "image",
    "extra",
    "broken",
    "bad_block",
    "bad_flag",
    "not_an_object",
    "throws",
    "asks",
  ];
  let id = 1;
  const messages: Message[] = [
    ...tools.map((name) => call(id++, name, {})),
    call(id++, "strict", { n: 1 }),
    call(id++, "strict", { n: 1, extra: true }),
    call(id++, "strict", { n: "1" }),
    call(id++, "strict"),
    call(id++, "text", [1]),
    call(id++, "text", "x"),
    call(id++, "text", null),
    call(id++, 7, {}),
    call(id++, undefined, {}),
    call(id++, "nope", {}),
    call(id++, "text", {}, { extra: 1 }),
    call(id++, "text", {}, { _meta: { progressToken: { not: "a token" } } }),
    call(id++, "text", {}, { task: { ttl: "soon" } }),
    call(id++, "structured", JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')),
    call(id++, "structured", { nested: { deep: [1, { x: "y" }] } }),
    { ...call(id++, "text", {}), extra: 1 },
    { jsonrpc: "2.0", id: id++, method: "tools/call" },
    { jsonrpc: "2.0", id: id++, method: "tools/call", params: "x" },
  ];

  it("2025: every result shape and every bad request", async () => {
    const stock = await legacyAnswers(buildServer(false, false), messages);
    const lean = await legacyAnswers(buildServer(true, false), messages);
    for (const [i, answer] of lean.entries()) expect(answer, JSON.stringify(messages[i])).toBe(stock[i]);
    expect(stock.filter((a) => a.includes('"error"')).length).toBeGreaterThan(5);
  });

  it("2026-07-28: every result shape and every bad request", async () => {
    const stock = await modernAnswers(() => buildServer(false, false), messages);
    const lean = await modernAnswers(() => buildServer(true, true), messages);
    for (const [i, answer] of lean.entries()) expect(answer, JSON.stringify(messages[i])).toBe(stock[i]);
  });

  it("a call it calls plain is one the SDK's request schema accepts, and would only copy", async () => {
    for (const era of [false, true]) {
      const server = buildServer(false, era) as unknown as {
        server: {
          _negotiatedWireCodec(): {
            validateRequest(m: string, r: unknown): { ok: boolean; value?: unknown };
          };
        };
      };
      if (era)
        (server.server as unknown as { _negotiatedProtocolVersion: string })._negotiatedProtocolVersion =
          MODERN_PROTOCOL_VERSION;
      const codec = server.server._negotiatedWireCodec();
      let plain = 0;
      for (const message of messages) {
        if (!isPlainToolCall(message)) continue;
        plain++;
        const checked = codec.validateRequest("tools/call", message);
        expect(checked.ok, JSON.stringify(message)).toBe(true);
        const { jsonrpc: _j, id: _i, ...rest } = message as Message;
        expect(JSON.stringify(checked.value), JSON.stringify(message)).toBe(JSON.stringify(rest));
      }
      expect(plain).toBeGreaterThan(tools.length);
    }
  });

  it("the server's capabilities are the same in the handshake", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const [stock] = await legacyAnswers(buildServer(false, false), [init]);
    const [lean] = await legacyAnswers(buildServer(true, false), [init]);
    expect(lean).toBe(stock);
    expect(stock).toContain('"tools":{"listChanged":true}');
  });
});

describe("Signpost's own tools answer as with every SDK check", () => {
  let w: McpWorld;
  let context: TrustedContext;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    const identity = await w.mcp.authenticate(w.keys.alice);
    if (!identity) throw new Error("alice's key did not resolve");
    context = identity.context;
  });
  afterAll(async () => w?.close());

  const mask = (text: string) =>
    text
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>")
      // Pages say times to the minute and how long ago: the four runs may straddle a minute.
      .replace(
        /\d{4}-\d\d-\d\d \d\d:\d\d UTC, (?:just now|in \d+ (?:min|h|days)|\d+ (?:min|h|days) ago)/g,
        "<when>",
      )
      .replace(/\b[a-z][a-z0-9]{23}\b/g, "<id>")
      .replace(/"requestState":"[^"]*"/g, '"requestState":"*"');

  it("reads, refusals, strict-schema rejections and a started action, in both eras", async () => {
    const faces = ["actions", "browse", "script"] as const;
    const server = (sdkToolCallChecks: boolean, era: "legacy" | "modern") => () =>
      w.mcp.serverFor(context, [...faces], undefined, undefined, {
        resources: true,
        era,
        sdkToolCallChecks,
      }) as unknown as McpServer;
    let id = 1;
    const messages: Message[] = [
      call(id++, "get_context", { entity: "order", entity_id: "ord_paid" }),
      call(id++, "get_context", { entity: "order", entity_id: "ord_nope" }),
      call(id++, "search_capabilities", { query: "refund my order" }),
      call(id++, "navigate", { uri: "shop://order/ord_paid" }),
      call(id++, "search", { query: "paid orders" }),
      // The strict schemas refuse exactly what they refused: unknown fields, identity, wrong types.
      call(id++, "get_context", { entity: "order", entity_id: "ord_paid", tenant_id: "globex" }),
      call(id++, "get_context", { entity: 7 }),
      call(id++, "navigate", { uri: "shop://order/ord_paid", user: "adam@acme.test" }),
      call(id++, "advance_action", { action_id: "x", version: "one", patch: {} }),
      call(id++, "start_action", { capability: "after_sales", entity_id: "ord_paid" }),
      call(id++, "decide_approval", {}),
      call(id++, "get_context", [1]),
      call(id++, 7, {}),
    ];
    const sync = async <T>(run: () => Promise<T>) => {
      await w.legacy.reset();
      return run();
    };
    const legacySdk = await sync(async () => legacyAnswers(await server(true, "legacy")(), messages));
    const legacyLean = await sync(async () => legacyAnswers(await server(false, "legacy")(), messages));
    const modernSdk = await sync(() =>
      modernAnswers(server(true, "legacy") as unknown as () => McpServer, messages),
    );
    const modernLean = await sync(() =>
      modernAnswers(server(false, "modern") as unknown as () => McpServer, messages),
    );
    for (const [i, message] of messages.entries()) {
      const what = JSON.stringify(message);
      expect(mask(legacyLean[i] ?? ""), what).toBe(mask(legacySdk[i] ?? ""));
      expect(mask(modernLean[i] ?? ""), what).toBe(mask(modernSdk[i] ?? ""));
    }
    expect(legacySdk[5]).toContain("unknown_field");
  });
});
