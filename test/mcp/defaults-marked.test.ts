import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { renderSummary } from "@/server/connectors/sdk/render-decision-summary";
import { parseActionState } from "@/server/engine/action-state";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * A field the action filled from its own default (a node's, or its schema's `.default()`) is
 * marked as one in the agent's text and on the person's screen, through the one renderer, and
 * stays marked after a later step. Round 7: comment_ticket's "Visible to: shown to the customer"
 * read as the user's choice though nobody chose who sees the comment.
 */
describe("defaults the user did not choose are marked everywhere", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const screenRows = async (actionId: string) => {
    const row = await w.db.action.findUniqueOrThrow({ where: { id: actionId } });
    return renderSummary(parseActionState(row.state).summary, "Comment").rows;
  };

  it("a schema default (who sees a comment): named with its other choice, marked on the screen, kept marked on advance", async () => {
    const sam = await w.connect(w.keys.sam);
    const res = await sam.callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        entity_id: "tkt_1",
        patch: { body: "Your code works again" },
      },
    });
    const out = sc(res);
    expect(out.defaulted).toEqual({ internal: { value: false, choices: [true] } });
    expect(text(res)).toMatch(
      /^defaults \(the user named none; ask them if it matters\): internal = false \(other choices: `true`\)$/m,
    );
    expect(text(res)).toContain("- Visible to: shown to the customer (default: the user did not choose it)");
    const visible = (await screenRows(String(out.action_id))).find((r) => r.label === "Visible to");
    expect(visible).toMatchObject({
      text: "shown to the customer",
      note: "default: the user did not choose it",
    });

    const advanced = await sam.callTool({
      name: "advance_action",
      arguments: {
        action_id: out.action_id,
        version: out.version,
        patch: { body: "Your code works again!" },
      },
    });
    expect(text(advanced)).toContain(
      "- Visible to: shown to the customer (default: the user did not choose it)",
    );

    // Chosen by the patch: no mark, no default claimed.
    const chosen = await sam.callTool({
      name: "advance_action",
      arguments: { action_id: out.action_id, version: sc(advanced).version, patch: { internal: false } },
    });
    expect(sc(chosen).defaulted).toBeUndefined();
    expect(text(chosen)).toContain("- Visible to: shown to the customer\n");
    expect(
      (await screenRows(String(out.action_id))).find((r) => r.label === "Visible to")?.note,
    ).toBeUndefined();
  });

  it("a yes/no field the words name is the user's choice, not a default: 'an internal note' is internal; a quoted body's words set nothing", async () => {
    const sam = await w.connect(w.keys.sam);
    // New tasks, round 25: "Add an internal note to tkt_3" answered internal = false (default),
    // shown to the customer; only the model's dry run kept the note from the customer.
    const note = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Add an internal note to tkt_3: 'Waiting for the warehouse to confirm stock.'" },
      }),
    );
    expect(note.from_words).toMatchObject({ ticket_id: "tkt_3", internal: "true" });
    expect(note.defaulted).toBeUndefined();
    const refused = sc(
      await sam.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          intent: "Comment on tkt_1, not internal: 'Your code works again'",
          dry_run: true,
        },
      }),
    );
    expect(refused.from_words).toMatchObject({ internal: "false" });
    // "internal" inside the quoted comment is the comment's word: the default stays, said as one.
    const quoted = sc(
      await sam.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          intent: "Comment on tkt_1: 'Our internal review found the charge; refund on its way.'",
          dry_run: true,
        },
      }),
    );
    expect(quoted.defaulted).toEqual({ internal: { value: false, choices: [true] } });
    // A review: the body after the ask's colon says "internal" (a default stays), and the "not"
    // of another phrase does not turn an internal note into one the customer sees.
    const body = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Comment on tkt_3: our internal team is checking", dry_run: true },
      }),
    );
    expect(body.defaulted).toEqual({ internal: { value: false, choices: [true] } });
    const notReply = sc(
      await sam.callTool({
        name: "start_action",
        arguments: { intent: "Not a reply, an internal note on tkt_3: waiting for stock", dry_run: true },
      }),
    );
    expect(notReply.from_words).toMatchObject({ internal: "true" });
  });

  it("'can I get the shipping cost back?' opens the after-sales request on the order it names, not a tie with the address change", async () => {
    const intent = "My backpack order arrived a week late; can I get the shipping cost back?";
    const res = await (await w.connect(w.keys.alice)).callTool({
      name: "start_action",
      arguments: { intent },
    });
    const out = sc(res);
    const action = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(action.capability).toBe("after_sales");
    expect(out.from_words).toMatchObject({ order_id: "ord_shipdiff", kind: "shipping_refund" });
    // The default amount says how it was chosen, and how a patch sends it (cents).
    expect(text(res)).toContain("amount = $7.00 (the full refundable amount; sent as 700)");
  });

  it("a reason the user's words give is their request verbatim, said to be their own words in the text and on the person's screen, and a reason sent wins", async () => {
    const alice = await w.connect(w.keys.alice);
    // Round 8: the exchange asked for a reason "if they gave none, their request verbatim",
    // though the agent had just sent that very request as intent.
    const words = "The tee I received is too small — exchange it for a size L.";
    const res = await alice.callTool({
      name: "start_action",
      arguments: { capability: "after_sales", intent: words },
    });
    const out = sc(res);
    expect(out.missing ?? [], JSON.stringify(out)).not.toContain("reason");
    expect((out.from_words as Record<string, string>).reason).toBe(`"${words}" (the user's own words)`);
    const rows = async () => (await screenRows(String(out.action_id))).find((r) => r.label === "Reason");
    expect(await rows()).toMatchObject({
      text: words,
      note: "the user's own words",
    });
    expect(text(res)).toContain(`- Reason: ${words} (the user's own words)`);

    // Sent by the agent: that reason, unmarked.
    const sent = await alice.callTool({
      name: "advance_action",
      arguments: { action_id: out.action_id, version: out.version, patch: { reason: "too small" } },
    });
    expect(sc(sent).from_words ?? {}).not.toHaveProperty("reason");
    expect(await rows()).toMatchObject({ text: "too small" });
    expect((await rows())?.note).toBeUndefined();
  });
});
