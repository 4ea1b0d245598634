import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createMcpWorld, type McpWorld, sc } from "./mcp-world";

// Issue 22: a connector's answer was read with `for await` over undici's body stream, whose async
// iterator (a promise per chunk and an end-of-stream watcher) cost ~0.14 ms of CPU more per
// answer than reading its `data` events, on every read a get_context or a navigate makes. Over a
// real MCP client: the reads answer as before and no connector answer is read by the iterator.

describe("a connector's answer is read without the stream's async iterator", () => {
  let w: McpWorld;

  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => {
    await w.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("get_context and navigate of an order", async () => {
    const client = await w.connect(w.keys.alice, { mode: "legacy" });
    const iterated: string[] = [];
    const real = Readable.prototype[Symbol.asyncIterator];
    vi.spyOn(Readable.prototype, Symbol.asyncIterator).mockImplementation(function (this: Readable) {
      // undici's answer bodies only: the route reads the MCP request's own body this way too.
      iterated.push(this.constructor.name);
      return real.call(this);
    });

    const read = await client.callTool({
      name: "get_context",
      arguments: { entity: "order", entity_id: "ord_paid" },
    });
    expect(sc(read).outcome).toBe("applied");
    expect(sc(read).entity).toBe("Order");
    const page = await client.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } });
    expect(JSON.stringify(page.content)).toContain("ord_paid");

    expect(iterated.filter((name) => name === "BodyReadable")).toEqual([]);
  });
});
