import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../../mcp/mcp-world";

type Comment = { author: string; body: string; internal: boolean; reference: string | null };

const WORDS = "We re-applied SAVE5; the customer gets 5% off the next order.";

/**
 * comment_ticket end to end: a real MCP client, gateway, database and legacy service. The comment
 * is the user's text as they wrote it, by the person the credential names, once per key.
 */
describe("comment_ticket (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const comments = async (tenant: "acme" | "globex", id: string) =>
    (
      (await (
        await fetch(`${w.legacy.url}/v1/tickets/${id}/comments?per_page=100`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys[tenant]}` },
        })
      ).json()) as { data: Comment[] }
    ).data;

  it("the user's words start it with the ticket and the quoted text, and it lands once under a resent key", async () => {
    const client = await w.connect(w.keys.sam);
    const before = (await comments("acme", "tkt_3")).length;
    // The capability named, as an agent does once it found it; the words fill the fields.
    // (Which capability such words pick alone is the engine's matching, tested there.)
    const args = {
      capability: "comment_ticket",
      intent: `Add a comment to the ticket tkt_3 about the SAVE5 coupon: '${WORDS}'`,
      idempotency_key: "comment-once-1",
    };
    const out = sc(await client.callTool({ name: "start_action", arguments: args }));
    expect(out, JSON.stringify(out)).toMatchObject({
      outcome: "applied",
      capability: "comment_ticket",
      status: "completed",
    });
    const after = await comments("acme", "tkt_3");
    expect(after).toHaveLength(before + 1);
    // Verbatim, public by default, written by Sam (the credential), keyed by the action.
    expect(after.at(-1)).toMatchObject({ body: WORDS, internal: false, author: "sam@acme.test" });
    expect(after.at(-1)?.reference).toEqual(expect.any(String));

    // The answer was lost and the agent sends the same call again: replayed, not written twice.
    const again = sc(await client.callTool({ name: "start_action", arguments: args }));
    expect(again).toMatchObject({ action_id: out.action_id, outcome: "applied" });
    expect(await comments("acme", "tkt_3")).toHaveLength(before + 1);
    expect(await w.db.effect.count({ where: { actionId: String(out.action_id) } })).toBe(1);

    // Verification reads the comment back by the action key.
    const verified = sc(
      await client.callTool({ name: "verify_action", arguments: { action_id: out.action_id } }),
    );
    expect(verified, JSON.stringify(verified)).toMatchObject({ outcome: "applied" });
    expect(JSON.stringify(verified)).toContain("commented");
  });

  it("a ticket the agent sent beside the user's words that name it: the quoted comment lands in that one call; words without the text stay named on the advance that gives it", async () => {
    const client = await w.connect(w.keys.sam);
    const before = (await comments("acme", "tkt_5")).length;
    // Issue 23: the words describe the ticket, the agent found and sent its id; nobody approves a
    // comment, so the start writes it (a model took start_action, then confirm_action).
    const said = "We re-applied the coupon, refund of 5.00 on its way.";
    const done = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          entity_id: "tkt_5",
          intent: `Add a comment to the ticket about the SAVE5 coupon: '${said}'`,
          // Who sees it, as the user said (a default would hold it for the agent to ask).
          patch: { internal: false },
        },
      }),
    );
    // The quote as written, its full stop included; only the quote marks go.
    expect(done, JSON.stringify(done)).toMatchObject({
      status: "completed",
      from_words: { body: `"${said}"` },
      summary: { comment: said },
    });
    expect(await comments("acme", "tkt_5")).toHaveLength(before + 1);

    // Round 8: the words describe the ticket but not the text; the advance that gives it answered
    // "9 records would take this change … (tkt_5 was picked)". The ticket stays named: it runs.
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          entity_id: "tkt_5",
          intent: "Add a comment to the ticket about the SAVE5 coupon",
        },
      }),
    );
    expect(started, JSON.stringify(started)).toMatchObject({ node: "COMMENT", missing: ["body"] });
    const fixed = "We re-applied the coupon; a refund of 5.00 is on its way.";
    const out = await client.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { body: fixed },
        idempotency_key: "comment-named-1",
      },
    });
    expect(text(out)).not.toMatch(/ask the user|was picked/);
    expect(sc(out), JSON.stringify(sc(out))).toMatchObject({ outcome: "applied", status: "completed" });
    const after = await comments("acme", "tkt_5");
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)).toMatchObject({ body: fixed, author: "sam@acme.test" });
  });

  it("an internal note stays internal, and an author in the arguments is refused, not used", async () => {
    const client = await w.connect(w.keys.sam);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          entity_id: "tkt_1",
          patch: { body: "Checked with billing: coupon valid.", internal: true },
        },
      }),
    );
    expect(started, JSON.stringify(started)).toMatchObject({
      node: "CONFIRM_COMMENT",
      summary: { author: "sam@acme.test", internal: "internal note" },
    });
    const note = sc(
      await client.callTool({
        name: "confirm_action",
        arguments: {
          action_id: started.action_id,
          version: started.version,
          idempotency_key: "comment-note-1",
        },
      }),
    );
    expect(note, JSON.stringify(note)).toMatchObject({ outcome: "applied", status: "completed" });
    expect((await comments("acme", "tkt_1")).at(-1)).toMatchObject({
      body: "Checked with billing: coupon valid.",
      internal: true,
      author: "sam@acme.test",
    });

    const count = (await comments("acme", "tkt_1")).length;
    const forged = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "comment_ticket",
          entity_id: "tkt_1",
          patch: { body: "Hello", author: "tm_bella" },
        },
      }),
    );
    expect(forged.outcome, JSON.stringify(forged)).not.toBe("applied");
    expect(forged).toMatchObject({ outcome: "rejected" });
    expect(JSON.stringify(forged)).toContain("author");
    expect(await comments("acme", "tkt_1")).toHaveLength(count);
  });

  it("another tenant's ticket is not found, and nothing lands there", async () => {
    const client = await w.connect(w.keys.sam);
    const before = await comments("globex", "tkt_gx_1");
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "comment_ticket", entity_id: "tkt_gx_1", patch: { body: "Hello there" } },
      }),
    );
    expect(out).toMatchObject({ outcome: "not_found" });
    expect(await comments("globex", "tkt_gx_1")).toEqual(before);
  });

  it("the ticket page links its comment form, and the form offers the comment's fields", async () => {
    const browse = await w.connect(w.keys.sam, { faces: "browse" });
    const page = text(
      await browse.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_5" } }),
    );
    expect(page).toContain("helpdesk://ticket/tkt_5/comment");
    const form = text(
      await browse.callTool({ name: "navigate", arguments: { uri: "helpdesk://ticket/tkt_5/comment" } }),
    );
    expect(form).toMatch(/body/);
    expect(form).toMatch(/internal/);
  });
});
