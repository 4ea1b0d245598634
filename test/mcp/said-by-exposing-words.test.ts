import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Comment = { body: string; internal: boolean };

/**
 * Security review: a field that decides who sees data (comment_ticket's `internal`) was set to its
 * exposing value by loose words — "to the customer" inside "the customer's ticket", "for the
 * customer" inside "customer success team", a curly "don’t" not read as a refusal — and because
 * the value counted as the user's word, the note went to the customer at once with no one asked.
 * Only an ask addressed to the audience ("reply to the customer") takes the exposing value; words
 * that lean both ways, or only hint, hold the change for the user. Real MCP client over HTTP, as
 * sam (helpdesk agent).
 */
describe("words take a field's exposing value only when they ask for it (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const BODY = "Card fraud suspected, do not refund.";
  const comments = async (id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { data: Comment[] }
    ).data.filter((c) => c.body.startsWith("Card fraud"));

  const held = [
    `Add a note to the customer's ticket tkt_3: '${BODY}'`,
    `Add a note to the customer’s ticket tkt_3: ‘${BODY}’`,
    `Add a note for the customer success team on tkt_3: ${BODY}`,
    `Add a private remark on tkt_3 about the refund to the customer: ${BODY}`,
    `Don’t reply to the customer, add a note on tkt_3: ${BODY}`,
    `Add a note on tkt_3, nothing for the customer: ${BODY}`,
    `Add a note on tkt_3 saying we will reply to the customer after the bank calls. ${BODY}`,
    `Reply on tkt_3: ${BODY}`,
    // Review 66d: a handover to a teammate, or the reply refused by "rather than" / "instead of".
    `Ask Bella to tell the customer on tkt_3: ${BODY}`,
    `Get Sid to reply to the customer on tkt_3: ${BODY}`,
    `Have Bella reply to the customer on tkt_3: ${BODY}`,
    `Post on tkt_3 so Bella can reply to the customer: ${BODY}`,
    `Rather than tell the customer, just comment on tkt_3: ${BODY}`,
    `Instead of a reply to the customer, leave a comment on tkt_3: ${BODY}`,
  ];
  for (const intent of held)
    it(`"${intent.slice(0, 60)}…" is never shown to the customer at once`, async () => {
      const sam = await w.connect(w.keys.sam);
      const out = await sam.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out).status, text(out)).not.toBe("completed");
      expect(sc(out).from_words ?? {}).not.toHaveProperty("internal", "false");
      expect(await comments("tkt_3")).toEqual([]);
    });

  it("a form submit whose user_words only mention the customer's ticket holds the default too", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const out = await sam.callTool({
      name: "submit",
      arguments: {
        uri: "helpdesk://ticket/tkt_3/comment",
        fields: { body: BODY, user_words: `Add a note to the customer's ticket tkt_3: '${BODY}'` },
      },
    });
    expect(text(out)).not.toMatch(/ · completed · version/);
    expect(await comments("tkt_3")).toEqual([]);
  });

  it("an internal note on the customer's ticket runs at once, internal: it exposes nothing", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: `Add an internal note to the customer's ticket tkt_3: '${BODY}'` },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "completed", from_words: { internal: "true" } });
    expect(await comments("tkt_3")).toEqual([expect.objectContaining({ internal: true })]);
  });

  it("a curly “don’t” refuses a field's own name as a straight one does", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: `Add a note on tkt_3 and don’t make it internal: ${BODY}` },
    });
    expect(sc(out).from_words, text(out)).toMatchObject({ internal: "false" });
  });

  it("an ask addressed to the customer still replies at once, curly apostrophes and all", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: `Please let the customer know on tkt_3 that it’s checked: ‘${BODY}’` },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "completed", from_words: { internal: "false" } });
    expect(await comments("tkt_3")).toEqual([expect.objectContaining({ internal: false })]);
  });

  it("a note 'for the team' is internal, and runs at once", async () => {
    // Set AL: it was held as shown to the customer by default.
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { capability: "comment_ticket", intent: `Add a note for the team on tkt_3: '${BODY}'` },
    });
    expect(sc(out), text(out)).toMatchObject({ status: "completed", from_words: { internal: "true" } });
    expect(await comments("tkt_3")).toEqual([expect.objectContaining({ internal: true })]);
  });
});
