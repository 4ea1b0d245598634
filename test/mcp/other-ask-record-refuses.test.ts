import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AZ (played): "Give the coupon not applied ticket to Bella and make it urgent", the ticket
 * resolved, changed the priority and offered `also asked: … → start_action assign_ticket`, a
 * call its start would refuse ("The ticket is resolved"); the models doubted whether the
 * assignment was still pending. An ask whose words name a record that refuses it is said as not
 * done, with the record's reason, and no call is offered for it. Seed: tkt_5 resolved.
 */
describe("another ask its named record refuses is said as not done, why (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const words = "Give the coupon not applied ticket to Bella and make it urgent";
  const refused =
    /^not done: "Give the coupon not applied ticket to Bella" \(assign_ticket: The ticket is resolved; reopen it before assigning; tell the user\)$/m;

  it("on a start", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_5", intent: words },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).toMatch(refused);
    expect(text(out)).not.toMatch(/also asked: "Give/);
    expect(await legacyJson(w.legacy, "tickets/tkt_5")).toMatchObject({
      priority: "urgent",
      status: "resolved",
    });
  });

  it("on a browse submit", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = text(
      await sam.callTool({
        name: "submit",
        arguments: {
          uri: "helpdesk://ticket/tkt_5/priority",
          fields: { priority: "urgent", user_words: words },
        },
      }),
    );
    expect(out).toMatch(
      /^not done: "Give the coupon not applied ticket to Bella" \(assign_ticket: The ticket is resolved/m,
    );
    expect(out).not.toMatch(/also asked: "Give/);
  });

  it("a later ask that may change the record first keeps the call offered (review 57)", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "change_ticket_priority",
        entity_id: "tkt_5",
        intent:
          "Make it urgent, give the coupon not applied ticket to Bella and reopen the coupon not applied ticket",
      },
    });
    expect(text(out)).not.toMatch(/not done: "give the coupon not applied ticket to Bella"/);
    expect(text(out)).toMatch(/give the coupon not applied ticket to Bella/);
  });
});
