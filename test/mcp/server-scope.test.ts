import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createMcpHttpHandler, type ServerScope } from "@/mcp/mcp-http-handler";

/**
 * A request that only calls or lists tools gets a server built without resources (registering
 * every route as a resource template was about a third of each server's build); any other
 * message, alone or in a batch, gets the whole server, so resources are listed and read as before.
 */
describe("/mcp builds each request's server for what the request asks", () => {
  const scopes: ServerScope[] = [];
  const handle = createMcpHttpHandler<{ who: string }>({
    authenticate: async (key) => (key === "sp_scope_test" ? { context: { who: "t" }, clientId: "t" } : null),
    createServer: (_context, _faces, _request, scope) => {
      scopes.push(scope);
      const server = new McpServer(
        { name: "scope-test", version: "1.0.0" },
        { capabilities: { tools: {}, resources: {} } },
      );
      server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
        content: [{ type: "text", text }],
      }));
      if (scope.resources)
        server.registerResource("note", "note://one", { mimeType: "text/plain" }, async () => ({
          contents: [{ uri: "note://one", mimeType: "text/plain", text: "one" }],
        }));
      return server;
    },
    allowedHostnames: ["localhost"],
  });
  const post = async (body: unknown) => {
    const response = await handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          authorization: "Bearer sp_scope_test",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          host: "localhost",
        },
        body: JSON.stringify(body),
      }),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as unknown;
  };
  const call = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "echo", arguments: { text: "hi" } },
  });

  it("a tool call: no resources; resources/list and a batch with a resource read: all of them", async () => {
    scopes.length = 0;
    expect(await post(call(1))).toMatchObject({ id: 1, result: { content: [{ text: "hi" }] } });
    expect(scopes).toEqual([{ resources: false, reusable: false, era: "legacy" }]);

    expect(await post({ jsonrpc: "2.0", id: 2, method: "resources/list", params: {} })).toMatchObject({
      id: 2,
      result: { resources: [{ uri: "note://one" }] },
    });
    const batch = await post([
      call(3),
      { jsonrpc: "2.0", id: 4, method: "resources/read", params: { uri: "note://one" } },
    ]);
    expect(batch).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: 4,
          result: expect.objectContaining({ contents: [expect.objectContaining({ text: "one" })] }),
        }),
      ]),
    );
    expect(scopes.slice(1)).toEqual([
      { resources: true, reusable: false, era: "legacy" },
      { resources: true, reusable: false, era: "legacy" },
    ]);
  });
});
