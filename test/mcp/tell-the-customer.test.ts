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
  it("the message stops where another ask begins; that ask is named with its call", async () => {
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
    ]) {
      await w.legacy.reset();
      const out = await start(intent);
      const s = sc(out);
      expect(s, text(out)).toMatchObject({ capability: "comment_ticket", status: "completed" });
      expect(await all("tkt_9")).toContainEqual(expect.stringMatching(/^We('ve| have) sent an L\.$/));
      expect(s.also_asked, text(out)).toEqual([
        expect.objectContaining({ capability: "set_ticket_status", entity_id: "tkt_9" }),
      ]);
      expect(text(out)).toMatch(/also asked: .*→ start_action .*set_ticket_status/);
    }
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
