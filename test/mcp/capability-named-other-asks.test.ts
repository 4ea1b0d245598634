import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Review 49 of set V's other asks on a start naming its capability: the words a change carries
 * as its text (a comment's body) are never another ask, and a resend under the agent's key never
 * runs the other asks a second time.
 */
describe("a start naming its capability reads only the asks its words make (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = (id: string) => legacyJson(w.legacy, `tickets/${id}`);
  const REPLY = "we will set it to pending and give it to Sara.";

  it("a reply whose text says 'give it to Sara' assigns nobody", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_2",
        intent: `Reply to the customer on the headphones ticket that ${REPLY}`,
        patch: { body: REPLY },
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(sc(out).also_done).toBeUndefined();
    expect(text(out)).not.toMatch(/^also (done|asked)/m);
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", assignee_id: "tm_sid" });
  });

  it("a comment form's page offers no call for the comment's own text", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_2/comment",
        fields: { body: REPLY, user_words: `Reply on the headphones ticket that ${REPLY}` },
      },
    });
    expect(text(page)).not.toMatch(/^also (done|asked)/m);
    expect((await ticket("tkt_2")).assignee_id).toBe("tm_sid");
  });

  it("an ask beside the text is still the user's: it runs", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_2",
        intent: "Tell the customer we will set it to pending, and lower its priority to low",
        patch: { body: "we will set it to pending" },
      },
    });
    expect(sc(out).status, text(out)).toBe("completed");
    expect(await ticket("tkt_2")).toMatchObject({ status: "open", priority: "low" });
  });

  it("a resend under the agent's key, past the server's window, runs no other ask again", async () => {
    const sam = await w.connect(w.keys.sam);
    const raises = () => w.db.action.count({ where: { capability: "change_ticket_priority" } });
    const before = await raises();
    const args = {
      capability: "set_ticket_status",
      entity_id: "tkt_2",
      intent: "Set the headphones ticket to pending and lower it to low priority.",
      idempotency_key: "k-review49-resend",
    };
    const first = await sam.callTool({ name: "start_action", arguments: args });
    expect(sc(first).also_done, text(first)).toHaveLength(1);
    // Later than the server's keys answer for (ten minutes), someone raises it again.
    await w.db.action.updateMany({ data: { createdAt: new Date(Date.now() - 11 * 60_000) } });
    await w.legacy.reset();
    const again = await sam.callTool({ name: "start_action", arguments: args });
    expect(sc(again).reason).toBe("idempotent_replay");
    expect((await ticket("tkt_2")).priority).toBe("normal");
    expect(await raises()).toBe(before + 1);
  });
});
