import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/** o200k tokens, a random action id held still (answer-token-budget.test.ts counts the same way). */
const tokens = (s: string) => encode(s.replace(/\b[a-z0-9]{24}\b/g, "ycbannku5mbr9fnejotmhzr2")).length;

/**
 * The page answering a form's submit says what start_action's answer says, at no more cost:
 * - the fields taken from the user's words, and why each record was picked. Played (Alice): a
 *   checkout submitted with "the cheapest shipping" answered "Shipping: Standard" alone, and the
 *   model read the whole action (1,014 tokens) to check that standard was the cheapest;
 * - of the records a change would take, where the user's words named none, the one sent and a
 *   few others, with how many more and where. Played (Sam): an internal comment sent without the
 *   words listed all nine tickets (~400 of the answer's 662 tokens).
 * Real MCP client over HTTP, gateway and legacy service; both faces kept to one shape.
 */
describe("a form's submit says why, in brief (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const CHECKOUT = {
    items: [{ product_id: "prod_mug", quantity: 2 }],
    address_id: "Office",
    payment_type: "balance",
  };
  const WORDS =
    "Order two Signpost Mugs, ship them to my office with the cheapest shipping, pay from my store credit.";
  const LINE =
    "taken from the words: address_id = addr_alice_office, shipping_method = standard (the cheapest of 3 available)";

  it("a checkout's page names what the words set and why: the label sent, read as its record, and the cheapest shipping", async () => {
    const alice = await w.connect(w.keys.alice);
    const page = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: "shop://checkout", fields: { ...CHECKOUT, user_words: WORDS } },
      }),
    );
    expect(page).toMatch(/ · awaiting_approval · version \d/);
    expect(page).toContain(`\n\n${LINE}\n\n`);
    // Fields the agent sent as they are (the items, the payment type) are not said again.
    expect(page).not.toMatch(/taken from the words: .*(items|payment_type) =/);
    // The action face says the same line for the same start.
    const started = await alice.callTool({
      name: "start_action",
      arguments: { capability: "checkout", patch: CHECKOUT, intent: WORDS },
    });
    expect(text(started)).toContain(`\n${LINE}\n`);
  });

  it("a comment sent without the words counts the others and says where they are; the action face lists four", async () => {
    const sam = await w.connect(w.keys.sam);
    const fields = { body: "Customer wants L, check stock.", internal: true };
    const out = await sam.callTool({
      name: "submit",
      arguments: { uri: "helpdesk://ticket/tkt_9/comment", fields },
    });
    const page = text(out);
    // Still: the cheaper path (the words resent) first, then asking the user, and the one call
    // that runs it.
    expect(page).toContain(
      "If the user's words name tkt_9, submit `helpdesk://ticket/tkt_9/comment` again with the same fields and `user_words`",
    );
    // No words came, so no words were read: the others are counted with where they are, not
    // listed (set AI: a slip's answer was 500 tokens, most of them unrelated records).
    expect(page).toContain(
      "Otherwise ask the user whether they mean tkt_9 (8 other records would take this change too, at `helpdesk://tickets`); on their word, one call runs it: `confirm_action {",
    );
    expect(page.match(/^- tkt_\d+ .*$/gm) ?? []).toHaveLength(0);
    // 662 tokens with every ticket listed (as played), 520 with four.
    expect(tokens(page)).toBeLessThanOrEqual(420);

    // The action face: the same records, the same count; its data keeps every one listed.
    const started = await sam.callTool({
      name: "start_action",
      arguments: { capability: "comment_ticket", entity_id: "tkt_9", patch: fields },
    });
    const said = text(started);
    const listed = (said.match(/^- `tkt_\d+` .*$/gm) ?? []).map((l) => l.slice(3, 8));
    expect(listed).toHaveLength(4);
    expect(listed[0]).toBe("tkt_9");
    expect(said).toContain("\n- and 5 more (structuredContent ask_user.candidates lists them)\n");
    const ask = sc(started).ask_user as Json;
    expect(ask).toMatchObject({ record: "tkt_9", others: 8 });
    expect(ask.candidates).toHaveLength(9);
  });
});
