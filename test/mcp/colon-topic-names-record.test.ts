import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * A review: "Make the headphones ticket high priority. Alice's lamp order problem: set the
 * ticket to pending" resolved the headphones ticket in the same call. The words before the colon
 * were read as an ask ("problem": resolving), the status change after it as that ask's text, and
 * the ask pinned to the started ticket. Words before a colon that name or describe a record are
 * the topic of the order after it: that order is the ask, about the record the topic names, so
 * it never runs on the started one; its call is offered with the topic's words, which pick it.
 */
describe("words before a colon name the record the ask after it is about (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeEach(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterEach(async () => w?.close());

  const ticket = (id: string) => legacyJson(w.legacy, `tickets/${id}`);
  const start = async (intent: string) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "change_ticket_priority", entity_id: "tkt_2", intent },
    });
    return { sam, out };
  };

  it.each([
    "Make the headphones ticket high priority. Alice's lamp order problem: set the ticket to pending",
    "Make the headphones ticket high priority. The lamp order problem: set the ticket to pending",
    "Make the headphones ticket high priority. Lamp order problem: set the ticket to pending",
  ])("the status change is offered with its topic, never run on the started ticket: %s", async (intent) => {
    const { sam, out } = await start(intent);
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done, text(out)).toBeUndefined();
    const topic = intent.slice(intent.indexOf(". ") + 2);
    const call = (sc(out).next_actions as Json[]).find(
      (n) => (n.args as Json | undefined)?.capability === "set_ticket_status",
    );
    expect(call?.args, text(out)).toEqual({ capability: "set_ticket_status", intent: topic });
    expect(text(out)).not.toContain("resolve_ticket");
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high" });
    // The offered call's words pick the record the topic describes.
    const next = await sam.callTool({ name: "start_action", arguments: call?.args as Json });
    expect(sc(next).status, text(next)).toBe("completed");
    expect(await ticket("tkt_1")).toMatchObject({ status: "pending" });
    expect(await ticket("tkt_2")).toMatchObject({ status: "open" });
  });

  // The same where no verb and object follow the colon: the words before it were read as the
  // ask ("problem": resolving), and that match ran on the started ticket.
  it("a match that only fits the topic's words never runs: 'Lamp order problem: mark as pending'", async () => {
    const { out } = await start(
      "Make the headphones ticket high priority. Lamp order problem: mark as pending",
    );
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done, text(out)).toBeUndefined();
    expect(text(out)).not.toContain("resolve_ticket");
    const call = (sc(out).next_actions as Json[]).find((n) => n.tool === "start_action");
    expect(call?.args, text(out)).toEqual({
      capability: "set_ticket_status",
      intent: "Lamp order problem: mark as pending",
    });
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high" });
  });

  it("a record named by a possessive alone is no ask: nothing offered on the started ticket", async () => {
    const { out } = await start("Make the headphones ticket high priority. Alice's lamp order problem.");
    expect(sc(out).status, text(out)).toBe("completed");
    expect(text(out)).not.toContain("resolve_ticket");
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high" });
  });

  // A review (low): a state said of the ask's record ("Sara is handling", "still unassigned")
  // made the whole ask a description, dropped with "flow finished".
  it.each([
    [
      "Make the headphones ticket high priority and give the ticket Sara is handling to Bella",
      "assign_ticket",
    ],
    [
      "Make the headphones ticket high priority and set the ticket still unassigned to pending",
      "set_ticket_status",
    ],
  ])("the other ask is said with its call, no record: %s", async (intent, capability) => {
    const { out } = await start(intent);
    expect(sc(out).status, text(out)).toBe("completed");
    const call = (sc(out).next_actions as Json[]).find(
      (n) => (n.args as Json | undefined)?.capability === capability,
    );
    expect(call?.args, text(out)).toEqual({ capability, intent: intent.slice(intent.indexOf(" and ") + 5) });
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "high", assignee_id: "tm_sid" });
  });

  // Review 52c: words naming a record's id before the colon are the ask, whatever word opens them;
  // read as topics, each answered "no capability does what these words ask" (search sees the id
  // cut to its prefix, so the roles come from the words with the id whole).
  it.each([
    ["Comment on tkt_2: please resend the tracking link", "comment_ticket"],
    ["Note for tkt_9: please send the L size", "comment_ticket"],
    ["Resolve tkt_1: refund the duplicate charge", "resolve_ticket"],
    ["Reply on tkt_3: please send the kettle back", "comment_ticket"],
  ])("%s: starts %s", async (intent, capability) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({ name: "start_action", arguments: { intent, dry_run: true } });
    expect(sc(out).capability, text(out)).toBe(capability);
  });

  // Review 52d: a second ask naming a record before its colon and ordering after it ran what the
  // words before the colon matched ("problem": a resolve) on that record, with the order as its
  // resolution. Which of the two is the ask is a guess: it is offered, never run in the call.
  it("'… Problem with tkt_1: set it to pending' runs nothing on tkt_1", async () => {
    const { out } = await start(
      "Make the headphones ticket high priority. Problem with tkt_1: set it to pending",
    );
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done, text(out)).toBeUndefined();
    expect(await ticket("tkt_1")).toMatchObject({ status: "open" });
  });
});
