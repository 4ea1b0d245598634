import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * namedBeside (review 49): a record that cannot take the change is weighed by the words that ask,
 * never by a clause that only says how things stand ("the invoice is sent" names no record to
 * change): such words ran the sent record at once before namedBeside, and still do.
 */
describe("words about how things stand never make a named record ask (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const runs: [string, string, string][] = [
    ["set_ticket_status", "tkt_2", "Set the headphones ticket to pending, the invoice is sent"],
    ["set_ticket_status", "tkt_9", "Set the wrong size tee ticket to pending, the coupon was applied"],
    ["assign_ticket", "tkt_2", "Give the headphones ticket to Sara, the parcel is late"],
    [
      "change_ticket_priority",
      "tkt_1",
      "Raise the charged twice ticket to urgent because the invoice copy is wrong",
    ],
    // Another ask's record is that ask's, not another meaning of this one's words.
    ["set_ticket_status", "tkt_2", "Set the headphones ticket to pending and close the coupon ticket"],
    [
      "set_ticket_status",
      "tkt_2",
      "Set the headphones ticket to pending and reopen the parcel damaged ticket",
    ],
  ];
  for (const [capability, entity_id, intent] of runs)
    it(`"${intent}" runs on ${entity_id} at once`, async () => {
      const sam = await w.connect(w.keys.sam);
      const out = await sam.callTool({ name: "start_action", arguments: { capability, entity_id, intent } });
      expect(sc(out).status, text(out)).toBe("completed");
    });

  // Clauses that describe the record (its own word, a pointing word, its kind) still weigh.
  const asks = [
    "Set my headphones ticket about the invoice to pending, it is late",
    "My headphones ticket about the invoice: set it to pending",
    "Set my headphones ticket to pending, it's the one about the invoice",
    "Set my headphones ticket, which is about the invoice, to pending",
  ];
  for (const intent of asks)
    it(`"${intent}" still asks: a closed record holds its other word`, async () => {
      const sam = await w.connect(w.keys.sam);
      const out = await sam.callTool({
        name: "start_action",
        arguments: { capability: "set_ticket_status", entity_id: "tkt_2", intent },
      });
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(text(out)).toContain("ask the user whether they mean tkt_2");
    });

  // Proved, not fixed: an id the words quote for a record that cannot take the change is no
  // word namedBeside weighs, so the sent record runs where the user's words named two.
  it.fails("a closed record's id beside the sent record's words asks", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "set_ticket_status",
        entity_id: "tkt_2",
        intent: "Set the headphones ticket tkt_8 to pending",
      },
    });
    expect(sc(out).status, text(out)).not.toBe("completed");
  });
});
