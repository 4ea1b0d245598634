import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Comment = { body: string; internal: boolean };

/**
 * Issue 23, played: "Tell the customer on the headphones ticket that a new tracking number is
 * coming today." The message's "tracking number" matched tracking an order as well as the ask
 * matched a comment ("several capabilities match"); started by its id, the comment still asked
 * for its body. The ask addressed to the customer is the comment, its message after "that" is
 * the body: one call. Only words addressed to the audience make it public. As sam, over HTTP.
 */
describe("'tell the customer … that …' is a public comment on the ticket, in one call (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const comments = async (id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { data: Comment[] }
    ).data.filter((c) => /tracking number/.test(c.body));
  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });

  it("the message's own words name no other capability; the comment runs at once, shown to the customer", async () => {
    const out = await start(
      "Tell the customer on the headphones ticket that a new tracking number is coming today.",
    );
    const s = sc(out);
    expect(s, text(out)).toMatchObject({ capability: "comment_ticket", status: "completed" });
    expect(s.from_words).toMatchObject({ ticket_id: "tkt_2", internal: "false" });
    expect(await comments("tkt_2")).toEqual([
      expect.objectContaining({ body: "A new tracking number is coming today.", internal: false }),
    ]);
    console.info(`tell the customer: ${encode(text(out)).length} tokens, 1 call`);
  });

  it("told to no audience, the same message is never shown to the customer at once", async () => {
    const out = await (await w.connect(w.keys.sam)).callTool({
      name: "start_action",
      arguments: {
        capability: "comment_ticket",
        intent: "Tell the team on the headphones ticket that a new tracking number is coming today.",
      },
    });
    expect(sc(out).status, text(out)).not.toBe("completed");
    expect(sc(out).from_words ?? {}).not.toHaveProperty("internal");
    expect(await comments("tkt_2")).toEqual([]);
  });

  it("a message that speaks of the customer in the third person is theirs to word: asked, not sent", async () => {
    const out = await start(
      "Tell the customer on the headphones ticket that their tracking number is coming today.",
    );
    const s = sc(out);
    expect(s, text(out)).toMatchObject({ capability: "comment_ticket", status: "open", missing: ["body"] });
    expect(await comments("tkt_2")).toEqual([]);
  });

  /**
   * Issue 23, played: "On the wrong size tee ticket: tell the customer we've sent an L, and set
   * it to pending." posted the whole instruction to the customer and never said the status was
   * left. Told speech ends where an order to the agent begins; that order is named as also asked.
   */
  it("words that ask more than the message: the text is cut where another ask begins, held for a check, the other ask named", async () => {
    const all = async (id: string) =>
      (
        (await (
          await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
            headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
          })
        ).json()) as { data: Comment[] }
      ).data.map((c) => c.body);
    for (const intent of [
      "On the wrong size tee ticket: tell the customer we've sent an L, and set it to pending.",
      "Tell the customer on the wrong size tee ticket that we have sent an L, and then put it on hold",
      // A review: the cut missed "and mark as pending"; held, the agent sees the text before it is sent.
      "Tell the customer on tkt_9 that we've sent an L and mark as pending",
    ]) {
      await w.legacy.reset();
      const before = await all("tkt_9");
      const out = await start(intent);
      const s = sc(out);
      // Nothing reached the customer from words that ask more than the message.
      expect(await all("tkt_9")).toEqual(before);
      if (s.capability === "comment_ticket") {
        // The comment started first: held, its text shown for the agent to check.
        expect(s.status, text(out)).not.toBe("completed");
        expect(text(out)).toContain("not sent yet: the words ask more than this");
      } else {
        // The status change started first and ran; the message is the other ask, with its words.
        expect(s, text(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
        expect(s.also_asked, text(out)).toEqual([expect.objectContaining({ capability: "comment_ticket" })]);
      }
    }
    // The cut text, confirmed, is what the customer reads.
    await w.legacy.reset();
    const held = sc(await start("On tkt_9: tell the customer we've sent an L, and set it to pending."));
    expect(held.from_words).toMatchObject({ body: '"We\'ve sent an L."' });
    const sam = await w.connect(w.keys.sam);
    const done = sc(
      await sam.callTool({
        name: "confirm_action",
        arguments: { action_id: held.action_id, version: held.version, idempotency_key: "told-l-0001" },
      }),
    );
    expect(done).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await all("tkt_9")).toContainEqual("We've sent an L.");
  });

  it("a clause with its own subject is part of the message, not another ask", async () => {
    const out = await start(
      "Tell the customer on the wrong size tee ticket that the parcel is lost and we will refund it",
    );
    expect(sc(out), text(out)).toMatchObject({ capability: "comment_ticket", status: "completed" });
    expect(sc(out).also_asked).toBeUndefined();
    expect(text(out)).toContain("The parcel is lost and we will refund it");
  });
});
