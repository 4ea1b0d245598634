import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const ROOT = join(import.meta.dirname, "..", "..");
// A stdio server is a fresh process that compiles and loads the app (seconds when the machine is
// idle, far more when the suite shares two cores with other work). The tests wait for its
// handshake, answers or exit, not for a time: the bounds (and the tests' 300 s) only say when to
// give up on a hung child.
const START_MS = 150_000;

describe("stdio entry and the MCP Apps confirmation screen", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("serves the same tools over stdio with the key from SIGNPOST_AGENT_KEY", async () => {
    const client = new Client(
      { name: "stdio-test", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "mcp", "stdio.ts")],
      cwd: ROOT,
      env: {
        ...getDefaultEnvironment(),
        SIGNPOST_AGENT_KEY: w.keys.alice,
        DATABASE_URL: w.database.url,
        SIGNPOST_MASTER_KEY: String(process.env.SIGNPOST_MASTER_KEY),
        SIGNPOST_FACES: "actions,browse",
        // The test's legacy service, allowed by its helper (test/helpers/allow-egress.ts).
        SIGNPOST_EGRESS_ALLOW: process.env.SIGNPOST_EGRESS_ALLOW ?? "",
      },
      stderr: "pipe",
    });
    await client.connect(transport, { timeout: START_MS });
    try {
      // The child loads what a tool needs on first use: the first calls wait as long as the start.
      const names = (await client.listTools(undefined, { timeout: START_MS })).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["start_action", "navigate", "approval_status"]));
      const view = sc(
        await client.callTool(
          { name: "get_context", arguments: { entity: "order", entity_id: "ord_paid" } },
          { timeout: START_MS },
        ),
      );
      expect(view.outcome).toBe("applied");
      const pageResult = await client.callTool(
        { name: "navigate", arguments: { uri: "shop://order/ord_transit" } },
        { timeout: START_MS },
      );
      expect(text(pageResult)).toContain("# Order ord_transit");
    } finally {
      await client.close();
    }
  }, 300_000);

  it("refuses to start over stdio without a valid key", async () => {
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "mcp", "stdio.ts")],
      cwd: ROOT,
      env: { ...getDefaultEnvironment(), SIGNPOST_AGENT_KEY: "sp_bogus_key", DATABASE_URL: w.database.url },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    // The process ends before the handshake: the client sees the connection close, and the
    // reason is on stderr (a bad key, not a crash or a missing database).
    await expect(client.connect(transport, { timeout: START_MS })).rejects.toThrow(/closed/i);
    await expect
      .poll(() => stderr, { timeout: 30_000 })
      .toContain("SIGNPOST_AGENT_KEY is invalid or revoked.");
  }, 300_000);

  it("the confirmation screen is a self-contained MCP App resource", async () => {
    const client = await w.connect(w.keys.alice, { faces: "actions" });
    const resources = (await client.listResources()).resources;
    const app = resources.find((r) => r.uri === "ui://signpost/confirm");
    expect(app?.mimeType).toBe("text/html;profile=mcp-app");
    const read = await client.readResource({ uri: "ui://signpost/confirm" });
    const html = String((read.contents[0] as { text?: string }).text);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<style>");
    expect(html).toContain("<script>");
    // No external origins: no src/href to http(s), no imports, no fetch of other hosts.
    expect(html).not.toMatch(/(src|href)=["']https?:/);
    expect(html).not.toMatch(/@import|<link /);
    expect(html).toContain("ui/notifications/tool-result");
    // The screen reads status and opens the console; it has nothing to approve with.
    expect(html).toContain("approval_status");
    expect(html).toContain("ui/open-link");
    expect(html).not.toMatch(/decide_approval|approval_token/);
    expect(html).toContain("signpost/approval");
  });
});
