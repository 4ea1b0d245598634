import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseBrowseUri } from "@/server/connectors/sdk/parse-browse-uri";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

/**
 * Set BG (both hosts): every change on a ticket or an order was a search for the record, only to
 * learn its id, then a submit of its form (the listing had already named the row forms). A form
 * submitted with its placeholder as written (`helpdesk://ticket/{id}/team`) reads its record from
 * the user's words, as start_action by words does: the only one that fits or the one they name,
 * else it asks; a change needing no approval runs at once only on such a record.
 */
describe("a form submitted with its {id} as written reads the record from the user's words (browse over MCP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = async (id: string) =>
    (await legacyJson(w.legacy, `tickets/${id}`)) as Record<string, unknown>;

  it("the record the words name: a team move waits for its admin; a priority change runs", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const submit = async (uri: string, words: string) =>
      text(await sam.callTool({ name: "submit", arguments: { uri, fields: { user_words: words } } }));
    const moved = await submit(
      "helpdesk://ticket/{id}/team",
      "Move the charged twice ticket to the shipping team.",
    );
    expect(moved).toMatch(/Status:\*\* awaiting_approval/);
    expect(moved).toContain("ticket_id = tkt_1");
    expect((await ticket("tkt_1")).team_id).toBe("billing");
    // Encoded as a client may send it: the same.
    const lowered = await submit(
      "helpdesk://ticket/%7Bid%7D/priority",
      "Set the wrong size tee ticket to normal priority.",
    );
    expect(lowered).toMatch(/change_ticket_priority · completed/);
    expect(lowered).toContain("[Back to ticket tkt_9](helpdesk://ticket/tkt_9)");
    expect((await ticket("tkt_9")).priority).toBe("normal");
  });

  it("words that fit several records, or only describe one, change nothing", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const submit = async (uri: string, words: string) =>
      text(await sam.callTool({ name: "submit", arguments: { uri, fields: { user_words: words } } }));
    const several = await submit(
      "helpdesk://ticket/{id}/priority",
      "Make the open shipping ticket low priority.",
    );
    expect(several).toMatch(/ask the user which one|ambiguous/);
    const described = await submit(
      "helpdesk://ticket/{id}/assign",
      "Give the one that nobody has touched to Sid.",
    );
    expect(described).not.toMatch(/· completed|Status:\*\* completed/);
    for (const id of ["tkt_1", "tkt_2", "tkt_9"]) {
      const t = await ticket(id);
      expect(t.priority).not.toBe("low");
    }
    expect((await ticket("tkt_9")).assignee_id).toBeNull();
    expect((await ticket("tkt_1")).assignee_id).toBeNull();
  });

  it("only a whole segment of a name in braces is a placeholder; on a record page it names nothing", async () => {
    for (const uri of [
      "helpdesk://ticket/{id}x/team",
      "helpdesk://ticket/{a/b}/team",
      "helpdesk://ticket/{..}/team",
    ])
      expect(parseBrowseUri(uri).ok).toBe(false);
    expect(parseBrowseUri("helpdesk://ticket/{id}/team")).toMatchObject({
      ok: true,
      value: { segments: ["ticket", "%7Bid%7D", "team"] },
    });
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/{id}" } });
    expect(page.isError ?? false).toBe(false);
    expect(text(page)).toMatch(/^# Not found/m);
  });
});
