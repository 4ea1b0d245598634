import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A record refused for the change (nothing about it can be fixed) is answered with the reason
 * and the ways forward, not with the lists that only explain the refusal again or the fields a
 * flow on it would still need. The bench's in-transit refund took 981 tokens against the REST
 * wrapper's 381, most of them the order's facts and each kind's eligibility repeated.
 */
describe("a refusal reads short", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("advancing onto an order nothing applies to: the reason and next steps, no choices re-listed, no missing", async () => {
    const alice = await w.connect(w.keys.alice);
    const started = sc(
      await alice.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", patch: { reason: "I do not want it any more" } },
      }),
    );
    const refused = await alice.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { order_id: "ord_transit" },
      },
    });
    expect(sc(refused)).toMatchObject({ outcome: "rejected", reason: "no_after_sales_available" });
    const said = text(refused);
    // The reason and every way forward stay.
    expect(said).toContain("a return is possible once it is delivered");
    expect(said).toMatch(/^- start_action \{"capability":"track_shipment","entity_id":"ord_transit"\}/m);
    expect(said).toMatch(/^- advance_action .* — Another order the user names \(order_id\)$/m);
    // What only explains the refusal again is in structuredContent, not in the text.
    expect(said).not.toMatch(/^options\./m);
    expect(said).not.toMatch(/^missing:/m);
    expect(sc(refused).options).toHaveProperty("after_sales");
    expect(encode(said).length).toBeLessThan(250);
  });
});
