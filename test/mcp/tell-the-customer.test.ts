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
});
