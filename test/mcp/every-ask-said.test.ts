import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Words that ask for two things ("Make tkt_2 high priority and give it to Sara") start the one
 * capability that does the first; the answer says what else they asked and the one call that does
 * it, never "flow finished" as if all were done (issue 23: the assignment was silently dropped).
 */
describe("every ask of the words is said (MCP over HTTP, real gateway and legacy service)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'Make tkt_2 high priority and give it to Sara.' changes the priority and, in the same call, assigns it", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Make tkt_2 high priority and give it to Sara." },
    });
    expect(sc(out)).toMatchObject({ capability: "change_ticket_priority", status: "completed" });
    // The other ask needs nobody's approval: the call the agent would make next ran here
    // (other-asks-run.ts), and the answer says so on one line.
    expect(sc(out).also_done).toEqual([
      expect.objectContaining({ words: "give it to Sara", capability: "assign_ticket", status: "completed" }),
    ]);
    expect(sc(out).also_asked).toBeUndefined();
    expect(text(out)).toMatch(/^also done: "give it to Sara" → assign_ticket `[a-z0-9]+`: /m);
    // Every ask done: the flow is finished, said so after the line of the second.
    expect(text(out)).not.toMatch(/also asked/);
    const ticket = await legacyJson(w.legacy, "tickets/tkt_2");
    expect(ticket).toMatchObject({ priority: "high", assignee_id: "tm_sara" });
  });

  it("the other ask started by the model's own fragment runs: the user's words named its record a moment before (sets O, P)", async () => {
    const client = await w.connect(w.keys.sam);
    const fragment = {
      capability: "change_ticket_priority",
      entity_id: "tkt_1",
      intent: "raise it to urgent",
    };
    // Alone, the fragment names no ticket: the change waits for the user's word.
    const alone = await client.callTool({ name: "start_action", arguments: fragment });
    expect(sc(alone).status).not.toBe("completed");
    expect(text(alone)).toMatch(/ask the user/);
    await client.callTool({ name: "cancel_action", arguments: { action_id: sc(alone).action_id } });
    // After a start whose words named tkt_1 (the assignment), the same fragment runs at once.
    const first = await client.callTool({
      name: "start_action",
      arguments: { intent: "Give the charged twice ticket to Bella." },
    });
    expect(sc(first)).toMatchObject({ capability: "assign_ticket", status: "completed" });
    const second = await client.callTool({ name: "start_action", arguments: fragment });
    expect(sc(second)).toMatchObject({
      outcome: "applied",
      status: "completed",
      capability: "change_ticket_priority",
    });
    // Words that point at another record are never overruled by the earlier start.
    for (const intent of ["raise the headphones ticket to urgent", "make tkt_2 urgent"]) {
      const elsewhere = await client.callTool({
        name: "start_action",
        arguments: { capability: "change_ticket_priority", entity_id: "tkt_1", intent },
      });
      expect(sc(elsewhere).status, intent).not.toBe("completed");
      await client.callTool({ name: "cancel_action", arguments: { action_id: sc(elsewhere).action_id } });
    }
    // Another agent's earlier start names nothing for this one.
    const other = await (await w.connect(w.keys.adam)).callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_1", intent: "make it low" },
    });
    expect(sc(other).status).not.toBe("completed");
  });

  it("an earlier start sent with the record's id counts as named where its words named that record too (set S)", async () => {
    const client = await w.connect(w.keys.sam);
    const reply = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_2",
        intent: "Reply to the customer on the headphones ticket: 'The carrier says it arrives tomorrow.'",
        patch: { body: "The carrier says it arrives tomorrow.", internal: false },
        idempotency_key: "set-s-reply-1",
      },
    });
    expect(sc(reply).status).toBe("completed");
    const pending = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "set_ticket_status",
        entity_id: "tkt_2",
        intent: "Then set the ticket to pending.",
        patch: { status: "pending" },
        idempotency_key: "set-s-pending-1",
      },
    });
    expect(sc(pending)).toMatchObject({ status: "completed", capability: "set_ticket_status" });
    // Sent with an id its words did not name, the earlier start names nothing.
    const other = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_9",
        intent: "Tell the customer we are on it.",
        patch: { body: "We are on it.", internal: false },
        idempotency_key: "set-s-reply-2",
      },
    });
    expect(sc(other).status).not.toBe("completed");
  });

  it("an earlier start the user cancelled names no record for the next one", async () => {
    const client = await w.connect(w.keys.sam);
    const first = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "assign_ticket",
        intent: "Give the wrong size tee ticket to Sid",
        dry_run: false,
      },
    });
    const id = sc(first).action_id as string;
    if (sc(first).status !== "completed")
      await client.callTool({ name: "cancel_action", arguments: { action_id: id } });
    else await w.db.action.update({ where: { id }, data: { status: "cancelled" } });
    const next = await client.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_9", intent: "make it low" },
    });
    expect(sc(next).status).not.toBe("completed");
  });

  it("an ask no capability does is said as not done, never as a finished flow", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Make tkt_2 high priority and sing me a song" },
    });
    expect(sc(out).also_asked).toEqual([{ words: "sing me a song" }]);
    expect(text(out)).toContain('not done: "sing me a song"');
    expect(text(out)).not.toMatch(/flow finished/);
  });

  it("search_capabilities with the same words lists both capabilities", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "search_capabilities",
      arguments: { query: "Make tkt_2 high priority and give it to Sara." },
    });
    const found = (sc(out).results as Json[]).map((r) => r.capability);
    expect(found).toEqual(expect.arrayContaining(["change_ticket_priority", "assign_ticket"]));
  });

  it("a search whose two asks each have their own best leads with them, not with a match of neither (set O)", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "search_capabilities",
      arguments: { query: "assign ticket to agent and change priority" },
    });
    const found = (sc(out).results as Json[]).map((r) => r.capability);
    expect(found.slice(0, 2)).toEqual(["assign_ticket", "change_ticket_priority"]);
    expect(text(out)).toMatch(/^1\. `assign_ticket`/m);
    expect(text(out)).toMatch(/^2\. `change_ticket_priority` .*\(for another ask of the words\)/m);
  });

  it("clauses that fill the one capability started are no other ask: 'Buy everything in my cart. Ship it to my office and pay from my account balance.'", async () => {
    // Alone, "ship it to my office" matches a delivery address change best; the purchase takes its address too.
    const client = await w.connect(w.keys.alice);
    const out = await client.callTool({
      name: "start_action",
      arguments: {
        intent: "Buy everything in my cart. Ship it to my office and pay from my account balance.",
      },
    });
    expect(sc(out).capability).toBe("checkout");
    expect(sc(out).also_asked).toBeUndefined();
  });

  it("'set tkt_3 to high priority and add a note that the priority was raised': the note is another ask, though its text shares the priority's words", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "set tkt_3 to high priority and add a note that the priority was raised" },
    });
    expect(sc(out).capability).toBe("change_ticket_priority");
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({
        words: "add a note that the priority was raised",
        capability: "comment_ticket",
      }),
    ]);
  });

  it("'set tkt_3 to high priority and add a note that the bank confirmed': the note is named with its call", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "set tkt_3 to high priority and add a note that the bank confirmed" },
    });
    expect(sc(out).also_asked).toEqual([
      expect.objectContaining({ words: "add a note that the bank confirmed", capability: "comment_ticket" }),
    ]);
  });

  it("'resolve tkt_4 and resolve tkt_2': the same capability on another record is another ask", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "resolve tkt_4 and resolve tkt_2" },
    });
    expect(sc(out).capability).toBe("resolve_ticket");
    expect(sc(out).also_asked).toEqual([
      { words: "resolve tkt_2", capability: "resolve_ticket", entity_id: "tkt_2" },
    ]);
  });

  it("one ask says nothing more: 'Make tkt_2 high priority'", async () => {
    const client = await w.connect(w.keys.sam);
    const out = await client.callTool({
      name: "start_action",
      arguments: { intent: "Make tkt_2 high priority" },
    });
    expect(sc(out).also_asked).toBeUndefined();
  });
});
