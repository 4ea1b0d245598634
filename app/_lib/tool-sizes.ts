import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import type { Face } from "@/mcp/faces";
import { getSignpostMcp } from "@/mcp/signpost-mcp";
import type { ConsoleContext } from "@/server/gateway/console-session";
import { personContext } from "@/server/gateway/trusted-context";
import { logger } from "@/server/logger";

export type ToolSize = { face: string; tools: number; tokens: number; bytes: number };

const SELECTIONS: { label: string; faces: Face[] }[] = [
  { label: "actions", faces: ["actions"] },
  { label: "browse", faces: ["browse"] },
  { label: "script", faces: ["script"] },
  { label: "all faces", faces: ["actions", "browse", "script"] },
];

/**
 * Measures what `tools/list` costs an agent per face: the real MCP server for these faces, a real
 * client over an in-memory transport, and the o200k tokenizer over the JSON the model would read.
 */
async function measure(ctx: ConsoleContext): Promise<ToolSize[]> {
  const { encode } = await import("gpt-tokenizer/encoding/o200k_base");
  const mcp = getSignpostMcp();
  const out: ToolSize[] = [];
  for (const selection of SELECTIONS) {
    const server = await mcp.serverFor(personContext(ctx, "actions"), selection.faces);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "signpost-catalog", version: "1.0.0" });
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      const json = JSON.stringify(tools);
      out.push({
        face: selection.label,
        tools: tools.length,
        tokens: encode(json).length,
        bytes: Buffer.byteLength(json),
      });
    } finally {
      await client.close();
      await server.close();
    }
  }
  return out;
}

// Tool definitions do not change while the process runs: measure once.
let cached: Promise<ToolSize[] | null> | undefined;

/** Tool-definition sizes per face, or null when they cannot be measured here (e.g. no tokenizer installed). */
export function readToolSizes(ctx: ConsoleContext): Promise<ToolSize[] | null> {
  cached ??= measure(ctx).catch((error) => {
    logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "catalog: measuring tool sizes failed",
    );
    cached = undefined;
    return null;
  });
  return cached;
}
