import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * A listing's text filter says what it searched, and a plural that matched nothing is tried in the
 * singular: set AO's models, told "Found by `refund` … the one record holding every word", listed
 * every ticket twice to learn whether descriptions had been searched; "refunds" is in no "Kettle
 * refund".
 */
describe("a text search says what it read (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (query: string) =>
    text(await (await w.connect(w.keys.sam)).callTool({ name: "search", arguments: { query } }));

  it("the filter line names what the text filter searched", async () => {
    expect(await search("Which tickets mention a refund?")).toContain(
      "Filtered: q = refund (searched: subjects and descriptions of tickets).",
    );
  });

  it.each([
    ["tickets about refunds", "refund", "tkt_3"],
    // Review 54c: "deliverie" and "boxe" found nothing.
    ["tickets mentioning deliveries", "delivery", "tkt_4"],
    ["tickets about boxes", "box", "tkt_6"],
  ])("a plural that matched nothing is tried in the singular: %s", async (query, one, id) => {
    const out = await search(query);
    expect(out).toContain(`these hold \`${one}\``);
    expect(out).toContain(`\`${id}\``);
  });

  it("a plural in -ies keeps its -ie form too ('hoodies' is no 'hoody')", async () => {
    const out = text(
      await (await w.connect(w.keys.alice)).callTool({
        name: "search",
        arguments: { query: "products: hoodies" },
      }),
    );
    expect(out).toContain("prod_hoodie");
  });
});
