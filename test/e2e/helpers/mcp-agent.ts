import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export type Agent = {
  client: Client;
  call(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ structured: Record<string, unknown>; text: string; raw: unknown }>;
  close(): Promise<void>;
};

/** A real MCP client (SDK v2, Streamable HTTP) speaking to the running app's /mcp with an agent key. */
export async function connectAgent(baseUrl: string, key: string, faces?: string): Promise<Agent> {
  const client = new Client({ name: "signpost-e2e-agent", version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp${faces ? `?faces=${faces}` : ""}`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return {
    client,
    async call(name, args) {
      const raw = await client.callTool({ name, arguments: args });
      const r = raw as {
        structuredContent?: Record<string, unknown>;
        content?: Array<{ type: string; text?: string }>;
      };
      return {
        structured: r.structuredContent ?? {},
        text: (r.content ?? []).map((c) => c.text ?? "").join("\n"),
        raw,
      };
    },
    close: () => client.close(),
  };
}
