import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * The per-record check of a "which … can I …" search runs only when the words ask whether an
 * action is possible on the records of the listing they name: a reviewer's "which tickets are
 * still open?" was answered with one capability's dry run over another system's records, each
 * "not found", and no ticket.
 */
describe("search: which records an action is possible for, only where asked", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("a question about a listing's state opens that listing, with no capability's check", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const answer = text(
      await sam.callTool({ name: "search", arguments: { query: "which tickets are still open?" } }),
    );
    expect(answer).not.toContain("is possible now");
    expect(answer).not.toContain("not found");
    expect(answer).toMatch(/\(helpdesk:\/\/tickets[^)]*\) \(opened here\)/);
  });

  it("'still' with a state asks which rows are so, not where a change is possible (set AZ)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    for (const query of ["urgent or high priority tickets still open", "tickets still open"]) {
      const answer = text(await sam.callTool({ name: "search", arguments: { query } }));
      expect(answer, query).not.toContain("is possible now");
      expect(answer, query).toMatch(/\(helpdesk:\/\/tickets\?[^)]*status=open[^)]*\) \(opened here\)/);
    }
  });

  it("a record the check cannot see for this caller is not called missing beside its link", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const answer = text(
      await sam.callTool({ name: "search", arguments: { query: "which orders can I pay?" } }),
    );
    expect(answer).toContain("## Where `pay_order` is possible now");
    expect(answer).not.toMatch(/not found/i);
    expect(answer).toMatch(/^- \[ord_\w+\]\(shop:\/\/order\/ord_\w+\) — not available to you$/m);
  });

  it("names entity_id only for a capability that takes one", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    for (const query of ["orders I can see", "show me everything I can buy"]) {
      const answer = text(await alice.callTool({ name: "search", arguments: { query } }));
      // The one capability that takes no record (a purchase) is never given an entity_id.
      expect(answer, query).not.toMatch(/"capability":"checkout","entity_id"/);
    }
  });

  it("question words never become a listing's text filter", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const answer = text(
      await alice.callTool({ name: "search", arguments: { query: "cheapest headphones I can still buy" } }),
    );
    expect(answer).not.toMatch(/q=[^)&]*still/);
  });
});
