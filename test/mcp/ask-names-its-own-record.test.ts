import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;
type Comment = { body: string; internal: boolean };

/**
 * Review (as Sam): a change that needs no approval ran at once on a record its own ask never
 * named. "Resolve it: '… tee ticket …' and assign the headphones ticket to Sara" resolved the
 * headphones ticket (named only by the other ask); "Assign it to Sara and add an internal note:
 * '… headphones ticket …'" assigned and noted the headphones ticket (named only inside the note's
 * quoted text). Words inside quotes are content, never the record an ask acts on, and an ask is on
 * a record its own words name, never on one another ask names.
 */
describe("an ask runs at once only on a record its own words name (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const notes = async (id: string) =>
    ((await legacyJson(w.legacy, `tickets/${id}/comments`)) as { data?: Comment[] }).data ?? [];
  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });

  it("'Resolve it: <quote naming a record> and assign <another record> …': nothing resolved at once", async () => {
    const before = (await legacyJson(w.legacy, "tickets/tkt_2")) as Json;
    const beforeTee = (await legacyJson(w.legacy, "tickets/tkt_9")) as Json;
    const out = await start(
      "Resolve it: 'refunded the tee ticket customer' and assign the headphones ticket to Sara",
    );
    const s = sc(out);
    if (s.capability === "resolve_ticket") expect(s.status).not.toBe("completed");
    for (const d of (s.also_done as Json[] | undefined) ?? [])
      expect(d.capability).not.toBe("resolve_ticket");
    expect(text(out)).not.toMatch(/Resolve the ticket: done/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Json).status).toBe(before.status);
    expect(((await legacyJson(w.legacy, "tickets/tkt_9")) as Json).status).toBe(beforeTee.status);
  });

  it("'Assign it to Sara and add an internal note: <quote naming a record>': nothing runs at once", async () => {
    const before = (await legacyJson(w.legacy, "tickets/tkt_2")) as Json;
    const notesBefore = (await notes("tkt_2")).length;
    const out = await start("Assign it to Sara and add an internal note: 'check the headphones ticket too'");
    expect(sc(out).status).not.toBe("completed");
    expect(sc(out).also_done ?? []).toEqual([]);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Json).assignee_id).toBe(before.assignee_id);
    expect((await notes("tkt_2")).length).toBe(notesBefore);
  });
});
