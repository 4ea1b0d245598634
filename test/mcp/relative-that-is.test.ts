import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pointsBack } from "../../server/gateway/operations/other-asks";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

/**
 * Set BC (plain host): "Pay for my kettle order that's waiting, from my balance." was answered
 * "awaiting_approval … — not run yet: its own words point back at a record nothing before them
 * names …, so check the record, then confirm_action; their approval at the link carries it out …
 * nothing to call now or after". "that's" describes the order (a relative clause), nothing said
 * before; and a change a person approves is checked on their screen, never held for the agent's
 * confirm. The model could not tell whether it had to confirm.
 */
describe("a relative 'that's' points back at nothing; an approval is never also held (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("reads 'that's' / 'that’s' after a noun as a relative clause, and bare 'that' as pointing", () => {
    expect(pointsBack("pay for my kettle order that's waiting")).toBe(false);
    expect(pointsBack("pay for my kettle order that\u2019s waiting")).toBe(false);
    expect(pointsBack("the ticket that're open")).toBe(false);
    expect(pointsBack("pay for that from my balance")).toBe(true);
    expect(pointsBack("give it to sara")).toBe(true);
  });

  it("'Pay for my kettle order that's waiting, from my balance.': awaits Alice, with no confirm asked of the agent", async () => {
    const mcp = await w.connect(w.keys.alice);
    const out = await mcp.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my kettle order that's waiting, from my balance." },
    });
    expect(text(out)).toMatch(/^awaiting_approval:/);
    expect(text(out)).not.toMatch(/point back|then confirm_action/);
    expect(text(out)).toMatch(/ord_pending/);
  });
});
