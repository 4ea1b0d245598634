import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectors,
  registerConnector,
  resetInstalledConnectors,
} from "@/server/connectors/connector-registry";
import { defineConnector } from "@/server/connectors/sdk";
import { createMcpWorld, type McpWorld } from "./mcp-world";

/** A connector like a company's own: a listing page and a detail page under its own scheme. */
function syntheticConnector(n: number) {
  const id = `sys${String(n).padStart(2, "0")}`;
  return defineConnector({
    id,
    title: `System ${n}`,
    scheme: id,
    description: `Invoices and customers of system ${n}.`,
    secrets: [{ name: "api_key", description: "key" }],
    createAdapter: () => ({}),
    healthPath: "/health",
    checkConnection: async () => ({ ok: true, status: 200 }),
    capabilities: [],
    entities: [],
    routes: [
      {
        pattern: `${id}://invoices`,
        title: `Invoices (system ${n})`,
        description: "Invoices, newest first.",
        keywords: ["invoices", `system${n}`],
        startPoint: true,
        render: async () => ({ title: "Invoices", outcome: "applied", markdown: "none" }),
      },
      {
        pattern: `${id}://invoice/{id}`,
        title: "Invoice",
        description: "One invoice.",
        keywords: ["invoice"],
        render: async (match) => ({ title: `Invoice ${match.params.id}`, outcome: "applied", markdown: "-" }),
      },
    ],
  });
}

/**
 * Issue 13 §4: the agent's tool surface does not grow with the systems behind it. tools/list
 * is compared byte for byte with the 3 built-in connectors (shop, helpdesk, and openapi, the home of
 * imported systems' writes), then 10 and 50 in all.
 */
describe("tools/list is the same however many connectors are installed", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => {
    resetInstalledConnectors();
    await w?.close();
  });

  async function toolsList(): Promise<string> {
    const client = await w.connect(w.keys.adam);
    return JSON.stringify(await client.listTools());
  }

  it("is byte-identical at 3, 10 and 50 connectors, while search reaches the new systems", async () => {
    expect(connectors()).toHaveLength(3);
    const two = await toolsList();
    for (let n = 1; n <= 7; n++) expect(registerConnector(syntheticConnector(n))).toEqual({ ok: true });
    expect(connectors()).toHaveLength(10);
    const ten = await toolsList();
    for (let n = 8; n <= 47; n++) expect(registerConnector(syntheticConnector(n))).toEqual({ ok: true });
    expect(connectors()).toHaveLength(50);
    const fifty = await toolsList();
    expect(ten).toBe(two);
    expect(fifty).toBe(two);

    const client = await w.connect(w.keys.adam, { faces: "browse" });
    const result = await client.callTool({ name: "search", arguments: { query: "invoices system37" } });
    expect((result.structuredContent as { links: string[] }).links[0]).toBe("sys37://invoices");
  });
});
