import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { mcpNodeRoute } from "@/mcp/mcp-node-route";
import { createSignpostMcp, type SignpostMcp } from "@/mcp/signpost-mcp";
import type { DbProvider } from "@/server/db/database-url";
import { createWorld, type World } from "../gateway/gateway-world";
import { serveNodeRoute, serveThisMcp } from "../helpers/serve-route";

export interface McpWorld extends World {
  mcp: SignpostMcp;
  /** Base URL of a real port answering /mcp as `serve` does (mcp/mcp-node-route.ts). */
  url: string;
  /** `${url}/mcp` */
  endpoint: string;
  connect(key: string, options?: ConnectOptions): Promise<Client>;
}

export interface ConnectOptions {
  faces?: string;
  /** `auto` negotiates 2026-07-28 (input_required); `legacy` speaks the 2025 handshake. */
  mode?: "auto" | "legacy";
  /** Declare form/url elicitation and answer with this handler. */
  elicit?: (
    params: Record<string, unknown>,
  ) => Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
  elicitationModes?: { form?: boolean; url?: boolean };
}

/** The real world of gateway tests, plus the app's /mcp route on a real HTTP port and an SDK v2 client factory. */
export async function createMcpWorld(provider: DbProvider = "sqlite"): Promise<McpWorld> {
  const world = await createWorld(provider);
  const mcp = createSignpostMcp({ db: world.db, publicUrl: "http://localhost:3000" });
  // The route serves the process-wide instance: this world's, on this world's database.
  const restore = serveThisMcp(mcp);
  // /mcp as `serve` answers it in production: on node:http, before Next.js (the Next route file
  // hands the same handler a WHATWG Request; test/mcp/node-route-answers.test.ts holds the two to the same answers).
  const server = await serveNodeRoute(mcpNodeRoute(() => mcp.answer));
  const endpoint = `${server.url}/mcp`;
  const clients: Client[] = [];

  async function connect(key: string, options: ConnectOptions = {}): Promise<Client> {
    const modes = options.elicitationModes ?? { form: true, url: true };
    const client = new Client(
      { name: "signpost-test", version: "1.0.0" },
      {
        versionNegotiation: { mode: options.mode ?? "auto" },
        capabilities: options.elicit
          ? { elicitation: { ...(modes.form ? { form: {} } : {}), ...(modes.url ? { url: {} } : {}) } }
          : {},
      },
    );
    if (options.elicit) {
      const answer = options.elicit;
      // The SDK's result type is a wide union; these handlers return plain accept/decline answers.
      client.setRequestHandler(
        "elicitation/create",
        async (request) => (await answer(request.params as Record<string, unknown>)) as never,
      );
    }
    const url = new URL(endpoint);
    if (options.faces) url.searchParams.set("faces", options.faces);
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  return {
    ...world,
    mcp,
    url: server.url,
    endpoint,
    connect,
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await server.close();
      restore();
      await world.close();
    },
  };
}

/** The structured outcome of a tool result. */
export function sc(
  result: unknown,
): Record<string, unknown> & { outcome: string; next_actions: Array<{ tool: string }> } {
  const value = (result as { structuredContent?: unknown }).structuredContent;
  if (!value || typeof value !== "object")
    throw new Error(`no structuredContent in ${JSON.stringify(result).slice(0, 500)}`);
  return value as Record<string, unknown> & { outcome: string; next_actions: Array<{ tool: string }> };
}

export function text(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join("\n");
}

/**
 * A record as the demo legacy system holds it now (`v1/…` path, acme's key): what a call really
 * changed, read beside what the agent was told.
 */
export async function legacyRecord<T = Record<string, unknown>>(w: McpWorld, path: string): Promise<T> {
  const res = await fetch(`${w.legacy.url}/v1/${path.replace(/^\/?(?:v1\/)?/, "")}`, {
    headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
  });
  return (await res.json()) as T;
}
