import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Words naming a value of a field the rows hold but the listing cannot filter by ("express", a
 * shipping method) keep only the rows holding it on a complete listing, with that column, said in
 * one line. Played: "my orders shipped express" read `status = shipped`, said `express` did not
 * filter, `?shipping_method=express` was refused, and the model spent five calls.
 */
describe("search keeps the rows holding a value it cannot filter by (MCP over HTTP, real legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const ids = (t: string) =>
    t
      .split("\n")
      .filter((l) => /^\| `ord_/.test(l))
      .map((l) => (l.split("|")[1] ?? "").trim().replaceAll("`", ""));

  it("my orders shipped express: the two express orders, whatever their status, in one call", async () => {
    const client = await w.connect(w.keys.alice);
    const t = text(
      await client.callTool({ name: "search", arguments: { query: "my orders shipped express" } }),
    );
    expect(ids(t)).toEqual(["ord_transit", "ord_shipdiff"]);
    expect(t).toContain("Only rows with shipping method `express`: 2 of 8");
    expect(t).toMatch(/\| shipping_method \|/);
    // "shipped" said how, not which status: express rows of other statuses are kept, and said so.
    expect(t).toContain(
      "`shipped` read as saying how (`express`), not as `status=shipped`: every `express` row is kept, whatever its `status`.",
    );
    expect(t).not.toContain("Filtered: status = shipped");
    expect(t).not.toMatch(/`express` did not filter/);
    expect(t).toContain("Page 1 · 2 shown, 6 left out");
  });

  it("a status word of no field's family stays the filter: delivered express orders", async () => {
    const client = await w.connect(w.keys.alice);
    const t = text(
      await client.callTool({ name: "search", arguments: { query: "my delivered orders express" } }),
    );
    expect(t).toMatch(/^Filtered: status = delivered[.;]/m);
    expect(ids(t)).toEqual(["ord_shipdiff"]);
    expect(t).toContain("Only rows with shipping method `express`: 1 of 4");
  });
});
