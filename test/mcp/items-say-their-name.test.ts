import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Set AB: "Buy a Hoodie and a Logo Tee in size XL" took "1 × prod_hoodie" — the one hoodie, a size
 * M — and the model searched the catalogue to learn which hoodie that was. A line the words took
 * says its row's name where the name says more than the words did.
 */
describe("items taken from the words say what they are (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a hoodie is said as the size it is; a line whose name the words said stays short", async () => {
    const alice = await w.connect(w.keys.alice);
    const start = async (intent: string) =>
      sc(
        await alice.callTool({
          name: "start_action",
          arguments: { capability: "checkout", intent, dry_run: true },
        }),
      );
    expect(((await start("Buy a hoodie, express to my home, pay by card")).from_words as Json).items).toBe(
      "1 × prod_hoodie (Hoodie (M))",
    );
    expect(
      ((await start("Buy a Signpost Mug, express to my home, pay by card")).from_words as Json).items,
    ).toBe("1 × prod_mug");
  });
});
