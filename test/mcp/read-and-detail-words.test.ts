import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Which capability words start, read by what they ask: words that only ask to find start no
 * change; the detail after an ask's colon never picks the capability; a ticket is named by its
 * description's words too, and the why says where they matched.
 */
describe("what the words ask, and where they name a record", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'find the ticket … and tell me its status' starts nothing and says where to read; 'find … and resolve it' still starts", async () => {
    const sam = await w.connect(w.keys.sam);
    const before = await w.db.action.count();
    const res = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Find the ticket about a login problem and tell me its status." },
    });
    expect(sc(res)).toMatchObject({ outcome: "rejected", reason: "no_capability_fits" });
    expect(text(res)).toMatch(
      /^rejected: These words ask to find or show, not to change anything: nothing was started\. To read or list records: search /,
    );
    expect(await w.db.action.count()).toBe(before);
    const both = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Find the wrong size tee ticket and resolve it: replacement sent" },
      }),
    );
    expect(both).toMatchObject({ capability: "resolve_ticket" });
  });

  it("the detail after an ask's colon never picks the capability: 'Resolve the ticket where the parcel was lost: refunded it' is a resolve", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Resolve the ticket where the headphones went missing: refunded it" },
      }),
    );
    expect(out.capability).toBe("resolve_ticket");
  });

  it("a ticket named by words of its description; the why quotes where they matched", async () => {
    const sam = await w.connect(w.keys.sam);
    const res = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Add an internal note to the ticket about SAVE5: 'Customer called again.'",
        dry_run: true,
      },
    });
    expect(sc(res).from_words).toMatchObject({ ticket_id: "tkt_5" });
    expect(text(res)).toContain('ticket_id = tkt_5 (fits description "SAVE5 did not apply at checkout."');
  });
});
