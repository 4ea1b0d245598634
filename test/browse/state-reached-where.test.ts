import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((m) => m[1]);

/**
 * Set BQ: "my orders shipped to office address" filtered `status = shipped`, which kept the one
 * order in transit (to another address), and said `office` filtered nothing; the model listed
 * every order again. A state said as where a record went is every state from it on its lifecycle.
 * Real MCP client over HTTP, gateway and legacy service.
 */
describe("a state said as where the record went (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const search = async (query: string) =>
    text(
      await (await w.connect(w.keys.alice, { faces: "browse" })).callTool({
        name: "search",
        arguments: { query },
      }),
    );

  it("'shipped to my office' keeps the shipped and the delivered orders sent there", async () => {
    const office = await search("my orders shipped to office address");
    expect(office).not.toContain("status = shipped");
    expect(office).toContain("every row with `status` shipped or delivered");
    expect(rowIds(office).sort()).toEqual(["ord_delivered", "ord_delivered_old"]);
    // Said otherwise, the state is the filter it was.
    expect(await search("my shipped orders")).toContain("Filtered: status = shipped;");
    // Review 61: people's words for a state say where it is now, and a denial keeps the one value.
    expect(await search("orders in transit to my home")).toContain(
      "Filtered: status = shipped \\(in transit\\);",
    );
    expect(await search("my orders shipped to me that haven't arrived")).toContain(
      "Filtered: status = shipped;",
    );
    // Set BR: a state said as what someone did, or what an amount was, is every state from it on.
    const paid = await search("total shipping paid across all my orders");
    expect(paid).toContain("every row with `status` paid or shipped or delivered");
    expect(rowIds(paid)).not.toContain("ord_pending");
    expect(rowIds(paid)).toHaveLength(6);
    expect(rowIds(await search("orders I paid"))).toHaveLength(6);
    expect(await search("my paid orders")).toContain("Filtered: status = paid;");
    // Review 61b: words that keep it where it stands keep the one value.
    expect(await search("orders that have been paid and are awaiting shipment")).toContain(
      "Filtered: status = paid;",
    );
    // The last state is itself alone: "delivered to my home".
    const home = await search("orders delivered to my home");
    expect(home).toContain("Filtered: status = delivered;");
    expect(rowIds(home).sort()).toEqual(["ord_exchange", "ord_shipdiff"]);
  });

  it("'how many tickets has each team resolved' counts the closed ones too: they were resolved first", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const resolved = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "How many tickets has each team resolved?" },
      }),
    );
    expect(resolved).toContain("every row with `status` resolved or closed");
    expect(rowIds(resolved).sort()).toEqual(["tkt_5", "tkt_6", "tkt_7", "tkt_8"]);
    const open = text(await sam.callTool({ name: "search", arguments: { query: "resolved tickets" } }));
    expect(open).toContain("Filtered: status = resolved;");
  });

  // Review 61b: on a listing of more pages the states cannot be cut from one page; the one named
  // stays the filter (as before), the later ones are named, and nothing is counted over every state.
  it("a listing of more pages keeps the state named as its filter and names the later ones", async () => {
    const store = new Database(w.legacy.dbPath);
    try {
      const add = store.prepare(
        `INSERT INTO tickets (tenant_id, id, subject, description, status, priority, assignee_id, team_id,
          requester_email, resolution, order_id, created_at, updated_at)
          VALUES ('acme', ?, 'Extra ticket', 'x', 'open', 'low', NULL, ?, 'adam@acme.test', NULL, NULL, ?, ?)`,
      );
      const old = "2020-01-01T00:00:00.000Z";
      for (const n of [1, 2, 3, 4]) add.run(`tkt_extra_${n}`, n % 2 ? "billing" : "shipping", old, old);
    } finally {
      store.close();
    }
    try {
      const sam = await w.connect(w.keys.sam, { faces: "browse" });
      const out = text(
        await sam.callTool({
          name: "search",
          arguments: { query: "How many tickets has each team resolved?" },
        }),
      );
      expect(out).toContain("shown, `status = resolved`; the later ones: `?status=closed`.");
      expect(out).toContain("Filtered: status = resolved;");
      expect(out).not.toContain("Per team_id");
      expect(rowIds(out).sort()).toEqual(["tkt_5", "tkt_6"]);
    } finally {
      await w.legacy.reset();
    }
  });

  // Review 61d: words that find no row leave no table, which is no table without the column.
  it("'tickets we resolved about late deliveries' still finds the closed ticket", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const out = text(
      await sam.callTool({
        name: "search",
        arguments: { query: "tickets we resolved about late deliveries" },
      }),
    );
    expect(out).not.toContain("its rows do not show `status`");
    expect(out).toContain("tkt_8");
  });
});
