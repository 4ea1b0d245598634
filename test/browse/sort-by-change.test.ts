import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set CM (both hosts): "tickets most recently updated" searched the tickets' text for "recently"
 * ("No ticket matches `recently`"), listed in update order without the update times, and both
 * players opened the listing again with `?columns=updated_at` to trust it. A record's last change
 * is its own sort ("most recently updated", "last changed"), never a text filter, and the time it
 * sorts by is a column of the answer. Real MCP client, gateway and legacy service.
 */
describe("search: most recently updated", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const ids = (page: string) => [...page.matchAll(/^\| `(tkt_\d+)` \|/gm)].map((m) => m[1]);

  it("sorts by the last change, latest first, with its time, and searches no text", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    // tkt_6 (resolved, 20 days old) is changed now, in the legacy service: the latest change.
    const changed = await fetch(`${w.legacy.url}/v1/tickets/tkt_6`, {
      method: "PATCH",
      headers: {
        authorization: `Bearer ${w.legacy.apiKeys.acme}`,
        "content-type": "application/json",
        "idempotency-key": "sort-by-change-1",
      },
      body: JSON.stringify({ priority: "low" }),
    });
    expect(changed.ok).toBe(true);
    for (const query of ["tickets most recently updated", "Which ticket was updated most recently?"]) {
      const page = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(page, query).not.toMatch(/No ticket matches|q=recently/);
      expect(page, query).toContain("Most recently updated first");
      expect(page, query).toMatch(/^\| id \|.*\| updated_at \|$/m);
      expect(ids(page)[0], query).toBe("tkt_6");
    }
  });

  it("least recently updated, which the listing cannot sort by: no text searched, and the order it has is said", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await sam.callTool({ name: "search", arguments: { query: "tickets least recently updated" } }),
    );
    expect(page).not.toMatch(/No ticket matches|q=recently/);
    expect(page).toContain("Most recently updated first");
    expect(page).toMatch(/^\| id \|.*\| updated_at \|$/m);
  });
});
