import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set BE (elicitation host): "cancel order" listed `after_sales` as "After-sales request", beside
 * "Unpaid order cancellation"; with no unpaid order left, the model opened each paid order to
 * learn that after-sales cancels one (4 calls, the wrapper 2). A capability line says the clause
 * of its use that holds a word of the search its title and record kind do not.
 */
describe("search: a capability line says why it matched where its title does not", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const capabilityLine = (markdown: string, id: string) =>
    markdown.split("\n").find((l) => l.startsWith(`- \`${id}\` — `)) ?? "";

  it("'cancel order': after-sales says it cancels a paid order; the unpaid cancel adds nothing", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = text(await alice.callTool({ name: "search", arguments: { query: "cancel order" } }));
    expect(capabilityLine(out, "after_sales")).toMatch(
      /^- `after_sales` — After-sales request: to cancel a paid order \(form:/,
    );
    expect(capabilityLine(out, "cancel_unpaid_order")).toMatch(/— Unpaid order cancellation \(form:/);
  });

  it("the record's kind, short words and a list of single words add nothing", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    // "order" is the record's kind for tracking too; "the" is in every use.
    const track = text(await alice.callTool({ name: "search", arguments: { query: "cancel the order" } }));
    expect(capabilityLine(track, "track_shipment")).toMatch(/— Track shipment \(form:/);
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const close = text(await sam.callTool({ name: "search", arguments: { query: "close ticket" } }));
    for (const id of ["close_ticket", "resolve_ticket"])
      expect(capabilityLine(close, id)).toMatch(/ticket \(form:/);
  });

  // Review 59c: the clause holding most of the words, not the first holding one.
  it("'take tkt_3 off hold': the clause about taking a ticket off hold, without its 'or'", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const off = text(await sam.callTool({ name: "search", arguments: { query: "take tkt_3 off hold" } }));
    expect(capabilityLine(off, "set_ticket_status")).toMatch(
      /— Set ticket status: off hold back to open \(form:/,
    );
  });
});
