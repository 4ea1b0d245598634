import {
  type AuthInfo,
  isJSONRPCRequest,
  isLegacyRequest,
  parseJSONRPCMessage,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPlainLegacyRequest, isPlainRequest, serveLegacyAsJson } from "@/mcp/legacy-json-leg";
import { exchangeOfRequest, toResponse } from "@/mcp/mcp-http-exchange";
import { MAX_REQUEST_BODY_BYTES } from "@/mcp/mcp-http-handler";
import type { TrustedContext } from "@/server/gateway/trusted-context";
import { createMcpWorld, type McpWorld } from "./mcp-world";

// The 2025 JSON leg answers on the SDK's Server through its own transport half
// (mcp/legacy-json-leg.ts), without WHATWG Request/Response. Its answers must be the SDK
// transport's (WebStandardStreamableHTTPServerTransport with enableJsonResponse), byte for byte:
// the same server, body and headers given to both.

const V = "2025-11-25";
const call = (id: number, name: string, args: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

describe("the 2025 JSON leg answers exactly as the SDK's own transport does", () => {
  let w: McpWorld;
  let context: TrustedContext;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    const identity = await w.mcp.authenticate(w.keys.alice);
    if (!identity) throw new Error("alice's key did not resolve");
    context = identity.context;
  });
  afterAll(async () => w?.close());

  const request = (body: unknown, headers: Record<string, string>) =>
    new Request("http://localhost:3000/mcp", {
      method: "POST",
      headers: {
        host: "localhost:3000",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: JSON.stringify(body),
    });
  const auth = (): AuthInfo => ({ token: "[agent key]", clientId: "alice", scopes: [] });
  const build = () => w.mcp.serverFor(context, ["actions", "browse"]);

  async function viaSdk(body: unknown, headers: Record<string, string>) {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    });
    await (await build()).connect(transport);
    const response = await transport.handleRequest(request(body, headers), {
      authInfo: auth(),
      parsedBody: body,
    });
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      body: await response.text(),
    };
  }

  async function viaLeg(body: unknown, headers: Record<string, string>) {
    const answer = toResponse(
      await serveLegacyAsJson(exchangeOfRequest(request(body, headers)), build, {
        authInfo: auth(),
        parsedBody: body,
        maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
      }),
    );
    return { status: answer.status, type: answer.headers.get("content-type"), body: await answer.text() };
  }

  it("for calls, lists, the handshake, batches, notifications and every refusal of the transport", async () => {
    const cases: Array<[string, unknown, Record<string, string>?]> = [
      [
        "initialize",
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
        },
      ],
      [
        "tools/list",
        { jsonrpc: "2.0", id: "l", method: "tools/list", params: {} },
        { "mcp-protocol-version": V },
      ],
      ["ping", { jsonrpc: "2.0", id: 2, method: "ping" }],
      ["get_context of a record", call(3, "get_context", { entity: "order", entity_id: "ord_paid" })],
      ["search_capabilities", call(4, "search_capabilities", { query: "refund my order" })],
      ["navigate", call(5, "navigate", { uri: "shop://order/ord_paid" })],
      ["arguments that fail the schema", call(6, "get_context", { entity: 7 })],
      ["a tool that is not there", call(7, "nope", {})],
      ["a method that is not there", { jsonrpc: "2.0", id: 8, method: "nope/nope", params: {} }],
      [
        "a batch of a list and a ping",
        [
          { jsonrpc: "2.0", id: 9, method: "tools/list", params: {} },
          { jsonrpc: "2.0", id: 10, method: "ping" },
        ],
      ],
      [
        "a batch of a notification and a call",
        [
          { jsonrpc: "2.0", method: "notifications/initialized" },
          call(11, "get_context", { action_id: "act_nope" }),
        ],
      ],
      ["a notification only", { jsonrpc: "2.0", method: "notifications/initialized" }],
      ["a response only", { jsonrpc: "2.0", id: 12, result: {} }],
      ["not a JSON-RPC message", { id: 13, method: "tools/list" }],
      [
        "two initializations",
        [
          {
            jsonrpc: "2.0",
            id: 14,
            method: "initialize",
            params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "t", version: "1" } },
          },
          { jsonrpc: "2.0", id: 15, method: "ping" },
        ],
      ],
      [
        "an unsupported protocol version",
        { jsonrpc: "2.0", id: 16, method: "ping" },
        { "mcp-protocol-version": "1999-01-01" },
      ],
      [
        "an Accept without event streams",
        { jsonrpc: "2.0", id: 17, method: "ping" },
        { accept: "application/json" },
      ],
      ["another Content-Type", { jsonrpc: "2.0", id: 18, method: "ping" }, { "content-type": "text/plain" }],
      // Around the leg's own test for a plain request (isPlainRequest): what the schema refuses.
      ["a member JSON-RPC does not have", { ...call(19, "get_context", {}), extra: 1 }],
      ["params that are a list", { jsonrpc: "2.0", id: 20, method: "tools/call", params: [1] }],
      ["params that are null", { jsonrpc: "2.0", id: 21, method: "tools/call", params: null }],
      ["an id that is null", { ...call(22, "get_context", {}), id: null }],
      ["an id that is not an integer", { ...call(23, "get_context", {}), id: 23.5 }],
      ["another JSON-RPC version", { ...call(24, "get_context", {}), jsonrpc: "1.0" }],
      ["a method that is not a string", { jsonrpc: "2.0", id: 25, method: 7 }],
      ["a string id", call("twenty-six" as unknown as number, "get_context", { entity: "order" })],
      [
        "a call with _meta",
        {
          ...call(27, "get_context", { entity: "order", entity_id: "ord_paid" }),
          params: { name: "get_context", arguments: {}, _meta: { note: "x" } },
        },
      ],
      [
        "a bad related task in _meta",
        {
          jsonrpc: "2.0",
          id: 28,
          method: "tools/call",
          params: {
            name: "get_context",
            arguments: {},
            _meta: { "io.modelcontextprotocol/related-task": { taskId: 7 } },
          },
        },
      ],
      [
        "a batch of a plain call and a bad one",
        [
          call(29, "get_context", { entity: "order", entity_id: "ord_paid" }),
          { ...call(30, "x", {}), id: null },
        ],
      ],
      [
        "a version header with spaces",
        call(31, "search_capabilities", { query: "refund" }),
        { "mcp-protocol-version": " 2025-06-18 " },
      ],
    ];
    for (const [what, body, headers = {}] of cases) {
      const sdk = await viaSdk(body, headers);
      const leg = await viaLeg(body, headers);
      expect(leg, what).toEqual(sdk);
      expect(sdk.status, what).not.toBe(500);
    }
  });

  it("its quick tests for a plain request and a legacy one only ever say what the SDK's would", async () => {
    const messages: unknown[] = [
      call(1, "get_context", { entity: "order" }),
      call("s" as unknown as number, "navigate", { uri: "x" }),
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 4, method: "tools/list", params: undefined },
      { jsonrpc: "2.0", id: 5, method: "initialize", params: { protocolVersion: V } },
      { ...call(6, "a", {}), extra: 1 },
      { ...call(7, "a", {}), id: null },
      { ...call(8, "a", {}), id: 8.5 },
      { ...call(9, "a", {}), id: Number.NaN },
      { ...call(10, "a", {}), jsonrpc: "2" },
      { jsonrpc: "2.0", id: 11, method: "a", params: [] },
      { jsonrpc: "2.0", id: 12, method: "a", params: null },
      { jsonrpc: "2.0", id: 13, method: "a", params: "x" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 14, result: {} },
      { jsonrpc: "2.0", id: 15, method: "a", params: { _meta: { progressToken: 1 } } },
      [call(16, "a", {})],
      null,
      "x",
    ];
    const versions = [null, V, " 2025-06-18\t", "2026-07-28", "1999-01-01", ""];
    let plain = 0;
    for (const message of messages) {
      const what = JSON.stringify(message);
      if (isPlainRequest(message)) {
        plain++;
        expect(isJSONRPCRequest(message), what).toBe(true);
        expect(parseJSONRPCMessage(message), what).toEqual(message);
      }
      for (const version of versions) {
        const headers = new Headers(version === null ? {} : { "mcp-protocol-version": version });
        if (isPlainLegacyRequest({ headers }, message))
          expect(
            await isLegacyRequest(new Request("http://localhost/mcp", { method: "POST", headers }), message),
            `${what} ${version}`,
          ).toBe(true);
      }
    }
    expect(plain).toBe(6);
  });
});
