import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set BC (plain host): "Pay for my kettle order that's waiting, from my balance." was answered
 * "awaiting_approval … — not run yet: its own words point back at a record nothing before them
 * names …, so check the record, then confirm_action; their approval at the link carries it out …
 * nothing to call now or after". "that's" describes the order (a relative clause), nothing said
 * before, but reading it so let a change needing no approval run on another ask's record
 * (review 58: "Make the one that's unassigned low priority, and move the headphones ticket to
 * billing"), so "that's" still holds such a change for a check. A change a person approves is
 * checked on their screen, never held for the agent's confirm: the model could not tell whether
 * it had to confirm.
 */
describe("a change a person approves is never also held for the agent's confirm (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  it("'Pay for my kettle order that's waiting, from my balance.': awaits Alice, with no confirm asked of the agent", async () => {
    const mcp = await w.connect(w.keys.alice);
    const out = await mcp.callTool({
      name: "start_action",
      arguments: { intent: "Pay for my kettle order that's waiting, from my balance." },
    });
    expect(text(out)).toMatch(/^awaiting_approval:/);
    expect(text(out)).not.toMatch(/point back|then confirm_action/);
    expect(text(out)).toMatch(/ord_pending/);
  });

  // Review 58: each ran a change needing no approval at once on the record only the other ask named.
  it.each([
    ["Make the one that's unassigned low priority, and move the headphones ticket to billing.", "tkt_2"],
    ["Make the ones that're pending low priority and give the tee ticket to Sara.", "tkt_9"],
    ["Give the tee ticket to Sid and set the one that's pending to high priority.", "tkt_9"],
    ["Resolve the one that's open and assign the tee ticket to Sara.", "tkt_9"],
  ])("%s: nothing changes on %s, named only by the other ask", async (intent, id) => {
    const before = (await legacyJson(w.legacy, `tickets/${id}`)) as Record<string, unknown>;
    const sam = await w.connect(w.keys.sam);
    await sam.callTool({ name: "start_action", arguments: { intent } });
    const after = (await legacyJson(w.legacy, `tickets/${id}`)) as Record<string, unknown>;
    expect({ status: after.status, priority: after.priority }).toEqual({
      status: before.status,
      priority: before.priority,
    });
  });

  // Review 58b: "the one that's …" describes a record of its own; it never carries another ask's.
  it("'… and give the one that's pending to Sara': the first ask's ticket is not given to Sara", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Set the tee ticket to high priority and give the one that's pending to Sara." },
    });
    expect(((await legacyJson(w.legacy, "tickets/tkt_9")) as Record<string, unknown>).assignee_id).not.toBe(
      "tm_sara",
    );
    expect(text(out)).not.toMatch(/also done: give the one that's pending/i);
  });

  it("'… and set the one that's pending to urgent' is no 'already so' of the first ask's ticket", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Give the tee ticket to Sid and set the one that's pending to urgent." },
    });
    expect(text(out)).not.toMatch(/already urgent/i);
  });

  it("'… and cancel the one that's been delivered' offers no cancel of the first ask's order", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Change the address of ord_pending to my home address and cancel the one that's been delivered.",
      },
    });
    const next = (sc(out).next_actions ?? []) as Array<{ args?: Record<string, unknown> }>;
    expect(
      next.some((n) => n.args?.capability === "cancel_unpaid_order" && n.args?.entity_id === "ord_pending"),
    ).toBe(false);
    expect(((await legacyJson(w.legacy, "orders/ord_pending")) as Record<string, unknown>).status).toBe(
      "pending_payment",
    );
  });

  it("'… and set the one which is pending to high priority': nothing changes on the tee ticket", async () => {
    const before = (await legacyJson(w.legacy, "tickets/tkt_9")) as Record<string, unknown>;
    const sam = await w.connect(w.keys.sam);
    await sam.callTool({
      name: "start_action",
      arguments: { intent: "Give the tee ticket to Sid and set the one which is pending to high priority." },
    });
    const after = (await legacyJson(w.legacy, "tickets/tkt_9")) as Record<string, unknown>;
    expect(after.priority).toBe(before.priority);
  });

  // Review 58c: "the one that's …" says which by its own clause, so the start is the other ask's.
  it("'Give the headphones ticket to Sara and set the one that's urgent to low priority': the headphones ticket keeps its priority", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent: "Give the headphones ticket to Sara and set the one that's urgent to low priority.",
      },
    });
    const s = sc(out);
    if (s.status === "input_required")
      await sam.callTool({
        name: "advance_action",
        arguments: { action_id: s.action_id, version: s.version, patch: { priority: "low" } },
      });
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Record<string, unknown>).priority).toBe(
      "normal",
    );
  });

  it("'Give the tee ticket to Sara and give the one that's pending to Sid': the second ask is said", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: { intent: "Give the tee ticket to Sara and give the one that's pending to Sid." },
    });
    expect(text(out)).toContain("give the one that's pending to Sid");
  });

  // Review 58d: a record the words only describe was picked by a word its text shares ("has").
  it.each([
    "Give the tee ticket to Sara and set the one that nobody has touched to low priority.",
    "Set the one that nobody has touched to low priority.",
  ])("%s: no ticket's priority changes at once", async (intent) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    expect(text(out)).not.toMatch(/Change the ticket's priority: done/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Record<string, unknown>).priority).toBe(
      "normal",
    );
  });

  // Stop 58's note: a relative clause after "one" or the kind ("that customers complained
  // about") was read as pointing back, or as a message opening, and the assignment ran on the
  // first ask's ticket.
  it.each([
    "Make the tee ticket low priority and give the one that customers complained about to Sid.",
    "Make the tee ticket low priority and give the ticket that customers complained about to Sid.",
    "Lower the tee ticket to normal, then hand the ticket which customers hate to Sid.",
    // Review 59: any noun a determiner opens, or "those"/"any", is described the same way.
    "Make the tee ticket low priority and give those that customers complained about to Sid.",
    "Make the tee ticket low priority and give the case that customers complained about to Sid.",
  ])("%s: the tee ticket is not given to Sid", async (intent) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    expect(text(out)).not.toMatch(/also done/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_9")) as Record<string, unknown>).assignee_id).toBeNull();
  });

  // Review 59: a relative clause after the pointing word describes the person, not the record.
  it("'… and give it to Sid who is the one that handled the headphones': the tee ticket goes to Sid", async () => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({
      name: "start_action",
      arguments: {
        intent:
          "Make the tee ticket low priority and give it to Sid who is the one that handled the headphones.",
      },
    });
    expect(text(out)).toMatch(/also done: .* Assign the ticket: done \\\(tkt_9\\\)/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Record<string, unknown>).assignee_id).toBe(
      "tm_sid",
    );
    expect(((await legacyJson(w.legacy, "tickets/tkt_9")) as Record<string, unknown>).assignee_id).toBe(
      "tm_sid",
    );
  });

  // Review 58d: a new order asked for changes no order's address (a checkout is never dropped
  // from the tie for the order the words name).
  it("'Ship another lamp order to my home address.': the lamp order keeps its address", async () => {
    const alice = await w.connect(w.keys.alice);
    await alice.callTool({
      name: "start_action",
      arguments: { intent: "Ship another lamp order to my home address." },
    });
    const order = (await legacyJson(w.legacy, "orders/ord_paid")) as { address?: { id?: string } };
    expect(order.address?.id).toBe("addr_alice_office");
  });

  // Review 58d: a start held for a check stayed held only in its answer, and the advance that
  // completed it ran it at once on the record another ask named. The hold is kept on the action.
  it.each([
    "Make it low priority, and move the headphones ticket to billing.",
    "Change its priority and assign the headphones ticket to Sara.",
  ])("%s: the advance that completes it waits for confirm_action", async (intent) => {
    const sam = await w.connect(w.keys.sam);
    const out = await sam.callTool({ name: "start_action", arguments: { intent } });
    const s = sc(out);
    expect(text(out)).toMatch(/not run yet/);
    const adv = await sam.callTool({
      name: "advance_action",
      arguments: { action_id: s.action_id, version: s.version, patch: { priority: "low" } },
    });
    expect(text(adv)).toMatch(/not run yet: its record was read from words that may not mean it/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Record<string, unknown>).priority).toBe(
      "normal",
    );
    // The agent's own confirm, after its check, runs it.
    const a = sc(adv);
    const done = await sam.callTool({
      name: "confirm_action",
      arguments: { action_id: a.action_id, version: a.version, idempotency_key: `check-${a.action_id}` },
    });
    expect(sc(done).status).toBe("completed");
  });

  // Review 58e: the hold on the action was passed by a resend (with or without the agent's key)
  // and by an advance under the agent's key.
  it.each([
    ["a resend", undefined, "resend"],
    ["a resend under the agent's key", "review58e-held-1", "resend"],
    ["an advance under the agent's key", "review58e-held-2", "advance"],
  ])("%s of a held start runs nothing", async (_what, key, how) => {
    const sam = await w.connect(w.keys.sam);
    const intent = "Make it low priority, and move the headphones ticket to billing.";
    const args = { intent, ...(key ? { idempotency_key: key } : {}) };
    const first = sc(await sam.callTool({ name: "start_action", arguments: args }));
    const again =
      how === "resend"
        ? await sam.callTool({ name: "start_action", arguments: args })
        : await sam.callTool({
            name: "advance_action",
            arguments: {
              action_id: first.action_id,
              version: first.version,
              patch: { priority: "low" },
              idempotency_key: key,
            },
          });
    expect(text(again)).not.toMatch(/Change the ticket's priority: done/);
    expect(((await legacyJson(w.legacy, "tickets/tkt_2")) as Record<string, unknown>).priority).toBe(
      "normal",
    );
  });
});
