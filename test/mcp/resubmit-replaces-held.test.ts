import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const COMMENT = "helpdesk://ticket/tkt_3/comment";
const BODY = "Your refund was approved, expect it in 3-5 days.";
const WORDS = "Tell the customer on tkt_3 their refund was approved, expect it in 3-5 days.";

/**
 * Played (issue 23): a form submitted without the user's words was held ("Not run yet … ask the
 * user whether they mean tkt_3"); the model re-submitted it with the words, which ran, and then
 * spent a cancel_action on the first so the comment would not be posted twice. A start of the same
 * change on the same record by the same agent now takes the place of the one held only for the
 * user's words: the held one is cancelled (nothing of it had run) and the answer says so. An
 * action that waits on a person's approval is never touched. Real MCP client over HTTP, gateway
 * and legacy service.
 */
describe("a re-submit with the user's words replaces the change held for them (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => {
    await w.legacy.reset();
    await w.db.action.deleteMany({ where: { entityId: { in: ["tkt_1", "tkt_3"] } } });
  });

  const actionIdIn = (markdown: string) =>
    /(?:actions:\/\/|Action )([A-Za-z0-9_-]+)/.exec(markdown)?.[1] ?? "";
  const postedOnTkt3 = async () => {
    const res = await fetch(`${w.legacy.url}/v1/tickets/tkt_3/comments`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    const rows = (await res.json()) as { data?: Array<{ body: string }> } | Array<{ body: string }>;
    return (Array.isArray(rows) ? rows : (rows.data ?? [])).filter((c) => c.body === BODY).length;
  };

  it("the form held without user_words says its re-submit replaces it; the re-submit runs once and cancels it", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const fields = { body: BODY, internal: false };
    const held = text(await sam.callTool({ name: "submit", arguments: { uri: COMMENT, fields } }));
    expect(held).toMatch(/ · open · version \d/);
    // One line says the re-submit with the words takes this one's place: nothing to cancel by hand.
    expect(held).toContain(
      "with the same fields and `user_words`: their request, verbatim; it then runs at once and replaces this one.",
    );
    const heldId = actionIdIn(held);

    const ran = text(
      await sam.callTool({
        name: "submit",
        arguments: { uri: COMMENT, fields: { ...fields, user_words: WORDS } },
      }),
    );
    expect(ran).toMatch(/comment_ticket · completed · version/);
    expect(ran).toMatch(
      new RegExp(
        `^\\*\\*applied:\\*\\* Add the comment: done .* — replaces held action ${heldId}, now cancelled: nothing of it had run$`,
        "m",
      ),
    );
    expect(await postedOnTkt3()).toBe(1);
    const first = await w.db.action.findUniqueOrThrow({ where: { id: heldId } });
    expect(first.status).toBe("cancelled");
    expect(await w.db.effect.count({ where: { actionId: heldId } })).toBe(0);
    // Audited as what it was: replaced by the agent's later start, not a cancel it asked for.
    const audit = await w.db.auditEvent.findFirst({
      where: { operation: "action.replaced", actionId: heldId },
    });
    expect(audit?.outcome).toBe("applied");
    // Nothing left open on the ticket: the model owes no cancel_action.
    expect(await w.db.action.count({ where: { entityId: "tkt_3", status: "open" } })).toBe(0);
  });

  it("start_action by capability does the same: the held start is replaced by the one the words name", async () => {
    const sam = await w.connect(w.keys.sam);
    const start = {
      capability: "comment_ticket",
      entity_id: "tkt_3",
      patch: { body: BODY, internal: false },
    };
    const held = sc(await sam.callTool({ name: "start_action", arguments: start }));
    expect(held).toMatchObject({ status: "open", ask_user: expect.objectContaining({ record: "tkt_3" }) });
    const ran = sc(await sam.callTool({ name: "start_action", arguments: { ...start, intent: WORDS } }));
    expect(ran).toMatchObject({ status: "completed", replaced: [held.action_id] });
    expect(String(ran.message)).toContain(`replaces held action ${held.action_id}`);
    expect((await w.db.action.findUniqueOrThrow({ where: { id: String(held.action_id) } })).status).toBe(
      "cancelled",
    );
    expect(await postedOnTkt3()).toBe(1);
  });

  it("an action waiting on a person's approval is never replaced by another submit", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const assign = { uri: "helpdesk://ticket/tkt_1/assign", fields: { assignee_id: "tm_sid" } };
    // Across teams: an admin approves. Held for the person, not for the user's words.
    const waiting = text(await sam.callTool({ name: "submit", arguments: assign }));
    expect(waiting).toMatch(/ · awaiting_approval · version \d/);
    const waitingId = actionIdIn(waiting);
    const again = text(
      await sam.callTool({
        name: "submit",
        arguments: { ...assign, fields: { ...assign.fields, user_words: "Assign tkt_1 to Sid" } },
      }),
    );
    expect(again).toMatch(/ · awaiting_approval · version \d/);
    expect(again).not.toContain("replaces held");
    expect((await w.db.action.findUniqueOrThrow({ where: { id: waitingId } })).status).toBe(
      "awaiting_approval",
    );
    expect(await w.db.approval.findFirst({ where: { actionId: waitingId } })).toMatchObject({
      status: "pending",
    });
  });
});
