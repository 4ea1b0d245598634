import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 49: "it" in another ask means the record the started change is on only where the words
 * name no other record before it. "…, and the wrong size tee ticket, give it to Sara" gave the
 * headphones ticket to Sara in the same call (by words, and now by a form's submit too).
 */
describe("an ask pointing past another record never runs on the started one (MCP over HTTP)", () => {
  let w: McpWorld;
  // A world each: the same ask's server key would answer a later case with the first one's run.
  beforeEach(async () => {
    w = await createMcpWorld();
  });
  afterEach(async () => w?.close());

  const ticket = (id: string) => legacyJson(w.legacy, `tickets/${id}`);
  const cases: [string, string][] = [
    [
      "set_ticket_status",
      "Set the headphones ticket to pending, and the wrong size tee ticket, give it to Sara",
    ],
    [
      "set_ticket_status",
      "Set the headphones ticket to pending; as for the charged twice ticket, give it to Sara",
    ],
    ["", "Set the headphones ticket to pending and take the wrong size tee ticket and give it to Sara"],
  ];
  for (const [capability, intent] of cases)
    it(`"${intent}"${capability ? " (capability named)" : ""} assigns nobody on tkt_2`, async () => {
      const sam = await w.connect(w.keys.sam);
      const out = await sam.callTool({
        name: "start_action",
        arguments: { ...(capability ? { capability, entity_id: "tkt_2" } : {}), intent },
      });
      expect(sc(out).status, text(out)).toBe("completed");
      expect(sc(out).also_done).toBeUndefined();
      expect(text(out)).toMatch(/^- also asked: "give it to Sara"/m);
      expect(text(out)).not.toContain('"entity_id":"tkt_2","intent":"give it to Sara');
      expect(await ticket("tkt_2")).toMatchObject({ status: "pending", assignee_id: "tm_sid" });
    });

  it("'it' right after the change's own record still runs there", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "set_ticket_status",
        entity_id: "tkt_2",
        intent: "The customer waits. Set the headphones ticket to pending and give it to Sara",
      },
    });
    expect(sc(out).also_done, text(out)).toHaveLength(1);
    expect(await ticket("tkt_2")).toMatchObject({ status: "pending", assignee_id: "tm_sara" });
  });
});
