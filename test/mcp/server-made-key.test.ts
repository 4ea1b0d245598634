import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { mintAgentKey } from "@/server/gateway/agent-keys";
import { describeEachProvider } from "../helpers/database";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Comment = { author: string; body: string };

const KETTLE = "Please deliver my kettle order to my home address instead.";
const SAID = "We re-applied SAVE5; the customer gets 5% off the next order.";
const COMMENT = {
  capability: "comment_ticket",
  intent: `Add a comment to the ticket tkt_3 about the SAVE5 coupon: '${SAID}'`,
  // Who sees it is the user's choice, said: a default holds the change (the test below).
  patch: { internal: false },
};

/**
 * Issue 23: a start that needs nobody's approval, on a record the user's words named, runs at
 * once without an idempotency_key — under a key the server makes from the request, so a resend
 * within the window is the first action's outcome, never a second effect. Real MCP client over
 * HTTP, gateway, database and legacy service.
 */
describeEachProvider("a key the server makes for a change nobody approves (%s)", (provider) => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld(provider);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (tenant: "acme" | "globex", path: string) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys[tenant]}` },
      })
    ).json()) as Record<string, unknown>;
  const comments = async (id: string) =>
    ((await legacy("acme", `/v1/tickets/${id}/comments?per_page=100`)).data as Comment[]).filter(
      (c) => c.body === SAID,
    );
  const addressOf = async (id: string) =>
    ((await legacy("acme", `/v1/orders/${id}`)).address as { label: string }).label;
  const effects = (capability: string) => w.db.effect.count({ where: { action: { capability } } });

  it("the user's words alone run the address change in one call; the same call resent is the first action's outcome, with no second effect", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await effects("change_delivery_address");
    const actions = () => w.db.action.count({ where: { capability: "change_delivery_address" } });
    const actionsBefore = await actions();
    const first = await client.callTool({ name: "start_action", arguments: { intent: KETTLE } });
    expect(sc(first), text(first)).toMatchObject({
      outcome: "applied",
      capability: "change_delivery_address",
      status: "completed",
      next_actions: [],
    });
    expect(text(first)).not.toMatch(/idempotency_key|needs no approval/);
    expect(await addressOf("ord_pending")).toBe("Home");
    expect(await effects("change_delivery_address")).toBe(before + 1);

    // The answer was lost; the agent sends the very same call again.
    const again = await client.callTool({ name: "start_action", arguments: { intent: KETTLE } });
    expect(sc(again)).toMatchObject({
      action_id: sc(first).action_id,
      reason: "same_request",
      outcome: "applied",
    });
    // What happened, when, by which action, and how to make the same change again on purpose.
    expect(text(again)).toMatch(
      new RegExp(
        `This same change was already made by action ${sc(first).action_id} \\(at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC, [^)]*\\): applied[^;]*; nothing ran twice\\. To make it again, send start_action with an idempotency_key of your own`,
      ),
    );
    expect(await effects("change_delivery_address")).toBe(before + 1);
    expect(await actions()).toBe(actionsBefore + 1);
  });

  it("a comment lands once: one call writes it, a resend replays it, the agent's own key writes it again, and so does the same call after the window", async () => {
    const client = await w.connect(w.keys.sam);
    const first = sc(await client.callTool({ name: "start_action", arguments: COMMENT }));
    expect(first, JSON.stringify(first)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await comments("tkt_3")).toHaveLength(1);

    const again = sc(await client.callTool({ name: "start_action", arguments: COMMENT }));
    expect(again).toMatchObject({ action_id: first.action_id, reason: "same_request" });
    expect(await comments("tkt_3")).toHaveLength(1);

    // The agent means it twice: its own key is a new request.
    const own = sc(
      await client.callTool({
        name: "start_action",
        arguments: { ...COMMENT, idempotency_key: "comment-twice-1" },
      }),
    );
    expect(own).toMatchObject({ outcome: "applied", status: "completed" });
    expect(own.action_id).not.toBe(first.action_id);
    expect(await comments("tkt_3")).toHaveLength(2);

    // Past the window the same words are a new request (the user asked again, later).
    await w.db.action.update({
      where: { id: String(first.action_id) },
      data: { createdAt: new Date(Date.now() - 11 * 60_000) },
    });
    const later = sc(await client.callTool({ name: "start_action", arguments: COMMENT }));
    expect(later).toMatchObject({ outcome: "applied", status: "completed" });
    expect([first.action_id, own.action_id]).not.toContain(later.action_id);
    expect(await comments("tkt_3")).toHaveLength(3);
    // Within the window again, the newest one answers.
    const resent = sc(await client.callTool({ name: "start_action", arguments: COMMENT }));
    expect(resent).toMatchObject({ action_id: later.action_id, reason: "same_request" });
    expect(await comments("tkt_3")).toHaveLength(3);
    // The agent's own key has no window (earlier-start.ts: one lookup, the window optional): its
    // resend, however late, is its first action, and the key is never given up.
    await w.db.action.update({
      where: { id: String(own.action_id) },
      data: { createdAt: new Date(Date.now() - 11 * 60_000) },
    });
    const ownLate = sc(
      await client.callTool({
        name: "start_action",
        arguments: { ...COMMENT, idempotency_key: "comment-twice-1" },
      }),
    );
    expect(ownLate).toMatchObject({ action_id: own.action_id, reason: "idempotent_replay" });
    expect(await comments("tkt_3")).toHaveLength(3);
  });

  it("a default the user did not choose holds the change for the agent to ask: nothing runs until the user's word", async () => {
    // Round 12: "the comment went out at once as customer-visible … That line arrived only after
    // the comment was published, so there was no chance to ask Sam."
    const sam = await w.connect(w.keys.sam);
    const { patch: _chosen, ...unsaid } = COMMENT;
    const held = await sam.callTool({ name: "start_action", arguments: unsaid });
    expect(sc(held), text(held)).toMatchObject({
      outcome: "applied",
      status: "open",
      defaulted: { internal: {} },
    });
    expect(text(held)).toContain(
      "internal is a default the user did not choose: ask them if it matters, then confirm_action runs it",
    );
    expect(await comments("tkt_3")).toHaveLength(0);
    // The user says; the agent's advance sets it and the change runs in that call.
    const said = await sam.callTool({
      name: "advance_action",
      arguments: { action_id: sc(held).action_id, version: sc(held).version, patch: { internal: false } },
    });
    expect(sc(said), text(said)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await comments("tkt_3")).toHaveLength(1);
  });

  it("the same start sent several times at once: one action, one effect, one comment", async () => {
    const client = await w.connect(w.keys.sam);
    const args = { ...COMMENT, intent: COMMENT.intent.replace("tkt_3", "tkt_4") };
    const outs = (
      await Promise.all(
        Array.from({ length: 4 }, () => client.callTool({ name: "start_action", arguments: args })),
      )
    ).map(sc);
    expect(new Set(outs.map((o) => o.action_id)).size, JSON.stringify(outs)).toBe(1);
    for (const o of outs) expect(o.outcome, JSON.stringify(o)).toBe("applied");
    expect(await comments("tkt_4")).toHaveLength(1);
    expect(await w.db.effect.count({ where: { actionId: String(outs[0]?.action_id) } })).toBe(1);
  });

  it("each step keeps its audit row, and the confirm's shows the key was made by the server", async () => {
    const client = await w.connect(w.keys.sam);
    const args = { ...COMMENT, intent: COMMENT.intent.replace("tkt_3", "tkt_5") };
    const out = sc(await client.callTool({ name: "start_action", arguments: args }));
    const rows = await w.db.auditEvent.findMany({
      where: { actionId: String(out.action_id) },
      orderBy: { seq: "asc" },
    });
    expect(rows.map((r) => r.operation)).toEqual(["action.started", "action.confirmed"]);
    expect(rows[0]?.arguments).not.toHaveProperty("idempotency_key");
    expect((rows[1]?.arguments as { idempotency_key?: string } | undefined)?.idempotency_key).toMatch(
      /^server-made\/[0-9a-f]{16}$/,
    );
  });

  it("where a person must approve, nothing is keyed and nothing runs: the action waits for the approval", async () => {
    const client = await w.connect(w.keys.alice);
    const out = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          intent:
            "Buy two of the Signpost mugs, ship to the office with standard shipping, pay from my balance",
          patch: { items: [{ product_id: "prod_mug", quantity: 2 }] },
        },
      }),
    );
    expect(out, JSON.stringify(out)).toMatchObject({ status: "awaiting_approval" });
    const row = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(row.startKey).toBeNull();
    expect(await w.db.effect.count({ where: { actionId: row.id } })).toBe(0);
  });

  it("a record the agent picked among several runs nothing: the user is asked which, and nothing is keyed", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await effects("change_delivery_address");
    const result = await client.callTool({
      name: "start_action",
      arguments: {
        capability: "change_delivery_address",
        entity_id: "ord_pending",
        patch: { address_id: "Home" },
      },
    });
    const out = sc(result);
    expect(out, JSON.stringify(out)).toMatchObject({ status: "open", ask_user: { field: "order_id" } });
    // What runs it, once the user said which: confirm_action (no approval is due).
    expect(text(result)).toMatch(
      /ask the user whether they mean ord_pending; on their word, confirm_action runs it/,
    );
    expect(await addressOf("ord_pending")).toBe("Office");
    const row = await w.db.action.findUniqueOrThrow({ where: { id: String(out.action_id) } });
    expect(row.startKey).toBeNull();
    // A dry run neither runs nor keys anything either.
    const preview = sc(
      await client.callTool({ name: "start_action", arguments: { intent: KETTLE, dry_run: true } }),
    );
    expect(preview).toMatchObject({ outcome: "preview" });
    expect(await addressOf("ord_pending")).toBe("Office");
    expect(await effects("change_delivery_address")).toBe(before);
  });

  it("another agent's identical request is its own, and another tenant's never meets this one", async () => {
    // A second agent key of Alice's: the same person, the same words, another agent.
    const alice = await w.db.user.findFirstOrThrow({ where: { email: "alice@acme.test" } });
    const minted = mintAgentKey();
    await w.db.agent.create({
      data: {
        tenantId: "acme",
        name: "Alice's second agent",
        userId: alice.id,
        keyHash: minted.keyHash,
        keyPrefix: minted.keyPrefix,
      },
    });
    // Not the words of the first test: its action would answer (the legacy store was reset, the database not).
    const args = {
      capability: "change_delivery_address",
      intent: "Please deliver my kettle order to my home address",
    };
    const one = sc(await (await w.connect(w.keys.alice)).callTool({ name: "start_action", arguments: args }));
    const two = sc(await (await w.connect(minted.key)).callTool({ name: "start_action", arguments: args }));
    expect(one, String(one.message)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(two.action_id).not.toBe(one.action_id);
    expect(two.reason).not.toBe("same_request");
    // Gina (globex) says the same words: her own tenant's answer, never Alice's action.
    const gina = sc(await (await w.connect(w.keys.gina)).callTool({ name: "start_action", arguments: args }));
    expect(gina.action_id).not.toBe(one.action_id);
    expect(gina.reason).not.toBe("same_request");
    expect(JSON.stringify(gina)).not.toContain(String(one.action_id));
  });

  it("an advance that completes a change nobody approves on a named record runs it; the same advance resent is the first outcome", async () => {
    const client = await w.connect(w.keys.alice);
    const before = await effects("change_delivery_address");
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "change_delivery_address", intent: "change the address of ord_pending" },
      }),
    );
    expect(started).toMatchObject({ missing: ["address_id"], from_words: { order_id: "ord_pending" } });
    const args = { action_id: started.action_id, version: started.version, patch: { address_id: "Home" } };
    const done = sc(await client.callTool({ name: "advance_action", arguments: args }));
    expect(done, JSON.stringify(done)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await addressOf("ord_pending")).toBe("Home");
    const again = await client.callTool({ name: "advance_action", arguments: args });
    expect(sc(again)).toMatchObject({ action_id: started.action_id, reason: "same_request" });
    expect(text(again)).toMatch(/already made .*nothing ran twice/);
    expect(await effects("change_delivery_address")).toBe(before + 1);
  });
});
