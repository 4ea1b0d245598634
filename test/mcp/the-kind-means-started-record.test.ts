import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23: "Tell the customer on the late delivery ticket: '…' and set the ticket to pending."
 * on a closed ticket posted the comment and offered set_ticket_status with no record, as if "the
 * ticket" named none: the agent nearly set some ticket pending. "The ticket", said bare, is the
 * one the sentence is about, as "it" is: the ask is read on that record, said not possible there
 * now where it is not, and run in the same call where it is.
 */
describe("'the <kind>' said bare in another ask is the started record (MCP over HTTP)", () => {
  let w: McpWorld;
  // A world each: the same ask's server key would answer a later case with the first one's run.
  beforeEach(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterEach(async () => w?.close());

  const ticket = (id: string) => legacyJson(w.legacy, `tickets/${id}`);

  it("on a closed ticket: the comment is posted, the status change said not possible there, no call offered", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const body = "We've sent a replacement today.";
    const page = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_8/comment",
        fields: {
          body,
          user_words: `Tell the customer on the late delivery ticket: '${body}' and set the ticket to pending.`,
        },
      },
    });
    const said = text(page);
    expect(said).not.toContain('"capability":"set_ticket_status"');
    expect(said).toMatch(/^not done: "set the ticket to pending" \(set_ticket_status cannot take tkt_8 now/m);
    expect(await ticket("tkt_8")).toMatchObject({ status: "closed" });
  });

  it("on an open ticket: the comment is posted and the ticket set pending in the one call", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_2",
        intent:
          "Add a comment on the headphones ticket: 'Tracking is moving again.' and set the ticket to pending",
        patch: { body: "Tracking is moving again.", internal: false },
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done as Json[], text(out)).toHaveLength(1);
    expect(await ticket("tkt_2")).toMatchObject({ status: "pending" });
  });

  it("'the ticket about …' names a record of its own: never pinned to the started one", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "set_ticket_status",
        entity_id: "tkt_2",
        intent: "Set the headphones ticket to pending and give the ticket about the lamp order to Sara",
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done, text(out)).toBeUndefined();
    expect(text(out)).not.toContain('"entity_id":"tkt_2","intent":"give the ticket about');
    expect(await ticket("tkt_2")).toMatchObject({ status: "pending", assignee_id: "tm_sid" });
  });

  // Review 52: each of these set tkt_2 pending at once, a change on a record the user did not
  // mean, or one they only suggested, or one that hung on something.
  it.each([
    "Make the headphones ticket high priority and set the ticket Bella has to pending",
    "Make the headphones ticket high priority and set the ticket mentioned earlier to pending",
    "Make the headphones ticket high priority; as for the charged twice one, set the ticket to pending",
    "Make the headphones ticket high priority. Should we set the ticket to pending, or leave it open?",
    "Make the headphones ticket high priority, and maybe set the ticket to pending",
    "Make the headphones ticket high priority, and if you can't, set the ticket to pending",
  ])("never run on the started record: %s", async (intent) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_2", intent },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done, text(out)).toBeUndefined();
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high" });
  });

  it("'close the ticket with 'Invoice copy' as its subject' is never offered on the started ticket (review 52b)", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "change_ticket_priority",
        entity_id: "tkt_2",
        intent:
          "Make the headphones ticket high priority and close the ticket with 'Invoice copy' as its subject",
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).not.toMatch(/"entity_id":"tkt_2","intent":"close the ticket/);
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high" });
  });
});
