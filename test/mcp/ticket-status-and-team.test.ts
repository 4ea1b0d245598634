import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Issue 23, played: "… and set it to pending" found no capability that sets a ticket's status,
 * and "Move the invoice ticket to the shipping team" none that moves it to another team (4
 * calls). set_ticket_status sets open ↔ pending (resolving stays resolve_ticket's, with its
 * resolution); move_ticket_to_team moves an open or pending ticket, an admin approving (as an
 * assignment across teams), and removes an assignee who is not on the new team. As sam (support)
 * over HTTP, the legacy helpdesk read back after each change.
 */
describe("setting a ticket's status and moving it to another team (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld();
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const ticket = async (id: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as { status: string; team_id: string; assignee_id: string | null };
  const start = async (args: Record<string, unknown>) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: args });

  it("everyday words find the status change and the team move, and leave the others their words", async () => {
    const sam = await w.connect(w.keys.sam);
    const first = async (query: string) =>
      (
        (sc(await sam.callTool({ name: "search_capabilities", arguments: { query } })).results ??
          []) as Array<{
          capability: string;
        }>
      )[0]?.capability;
    for (const q of [
      "set it to pending",
      "mark the ticket as pending",
      "put the ticket on hold",
      "take tkt_3 off hold",
    ])
      expect(await first(q), q).toBe("set_ticket_status");
    for (const q of [
      "move the invoice ticket to the billing team",
      "transfer to shipping",
      "move tkt_1 to another team",
    ])
      expect(await first(q), q).toBe("move_ticket_to_team");
    for (const [q, cap] of [
      ["resolve the ticket", "resolve_ticket"],
      // A resolved ticket is closed by close_ticket; one still open is resolved with a resolution.
      ["close the ticket", "close_ticket"],
      ["close this open ticket, we fixed it", "resolve_ticket"],
      ["reopen the ticket", "reopen_ticket"],
      ["make tkt_2 urgent", "change_ticket_priority"],
      ["assign it to Bella", "assign_ticket"],
      ["transfer the ticket to Sara", "assign_ticket"],
    ])
      expect(await first(q as string), q).toBe(cap);
  });

  it("'put the wrong size tee ticket on hold' sets it pending in one call; 'take it off hold' back", async () => {
    const out = await start({ intent: "Put the wrong size tee ticket on hold" });
    expect(sc(out), text(out)).toMatchObject({ capability: "set_ticket_status", status: "completed" });
    expect(sc(out).from_words).toMatchObject({ ticket_id: "tkt_9", status: "pending" });
    expect((await ticket("tkt_9")).status).toBe("pending");
    const back = await start({ intent: "Take the wrong size tee ticket off hold" });
    expect(sc(back).from_words, text(back)).toMatchObject({ ticket_id: "tkt_9", status: "open" });
    expect((await ticket("tkt_9")).status).toBe("open");
    // A review: words of a phrase scattered through the request ("take … off") set it open.
    const kept = await start({ intent: "Keep tkt_4 on hold and take the kettle note off it" });
    expect(sc(kept).from_words, text(kept)).not.toMatchObject({ status: "open" });
    expect((await ticket("tkt_4")).status).toBe("pending");
  });

  it("by id: a pending ticket back to open; already so, resolved or another tenant's: refused or not found", async () => {
    const out = await start({
      capability: "set_ticket_status",
      entity_id: "tkt_3",
      patch: { status: "open" },
    });
    const ready = sc(out);
    expect(ready, text(out)).toMatchObject({ status: "open", node: "CONFIRM_STATUS" });
    const done = await (await w.connect(w.keys.sam)).callTool({
      name: "confirm_action",
      arguments: { action_id: ready.action_id, version: ready.version, idempotency_key: "status-tkt-3" },
    });
    expect(sc(done), text(done)).toMatchObject({ outcome: "applied", status: "completed" });
    expect((await ticket("tkt_3")).status).toBe("open");
    const same = await start({
      capability: "set_ticket_status",
      entity_id: "tkt_4",
      patch: { status: "pending" },
    });
    expect(text(same)).toMatch(/already pending/);
    const resolved = await start({
      capability: "set_ticket_status",
      entity_id: "tkt_5",
      patch: { status: "pending" },
    });
    expect(sc(resolved), text(resolved)).toMatchObject({ outcome: "rejected", reason: "ticket_not_open" });
    expect(text(resolved)).toMatch(/reopen_ticket/);
    // Resolving is not a status this capability sets: it needs resolve_ticket's resolution.
    const resolving = await start({
      capability: "set_ticket_status",
      entity_id: "tkt_1",
      patch: { status: "resolved" },
    });
    expect(sc(resolving).outcome, text(resolving)).not.toBe("applied");
    expect((await ticket("tkt_1")).status).toBe("open");
    const theirs = await start({
      capability: "set_ticket_status",
      entity_id: "tkt_gx_1",
      patch: { status: "pending" },
    });
    expect(sc(theirs).outcome, text(theirs)).toBe("not_found");
  });

  it("by words: the kettle ticket (billing, Bella) to shipping waits for an admin; approved, it arrives unassigned", async () => {
    const out = await start({ intent: "Move the kettle refund ticket to the shipping team" });
    const s = sc(out);
    expect(s, text(out)).toMatchObject({ capability: "move_ticket_to_team", status: "awaiting_approval" });
    expect(s.from_words).toMatchObject({ ticket_id: "tkt_3", team_id: "shipping" });
    // The assignee the move removes is said before anyone approves.
    expect(text(out)).toMatch(/Bella Billing is not on Shipping/);
    // Who decides is said once, as the approver (set N: "the user decides" sent Sam to approve).
    expect(text(out)).toMatch(/an admin must approve it/);
    expect(text(out)).not.toMatch(/the user decides/);
    expect((await ticket("tkt_3")).team_id).toBe("billing");
    const decided = await w.gw.decideApproval(w.person.adam, {
      action_id: s.action_id as string,
      version: s.version as number,
      decision: "approve",
    });
    expect(decided.outcome).toBe("applied");
    const sam = await w.connect(w.keys.sam);
    const read = sc(await sam.callTool({ name: "get_context", arguments: { action_id: s.action_id } }));
    const done = await sam.callTool({
      name: "confirm_action",
      arguments: { action_id: s.action_id, version: read.version, idempotency_key: "move-tkt-3" },
    });
    expect(sc(done), text(done)).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await ticket("tkt_3")).toMatchObject({ team_id: "shipping", assignee_id: null });
  });

  it("by id: its own team, a closed ticket, or another tenant's ticket are refused or not found", async () => {
    const same = await start({
      capability: "move_ticket_to_team",
      entity_id: "tkt_2",
      patch: { team_id: "shipping" },
    });
    expect(text(same)).toMatch(/already on shipping/);
    const closed = await start({
      capability: "move_ticket_to_team",
      entity_id: "tkt_7",
      patch: { team_id: "shipping" },
    });
    expect(sc(closed), text(closed)).toMatchObject({ outcome: "rejected", reason: "ticket_not_open" });
    const theirs = await start({
      capability: "move_ticket_to_team",
      entity_id: "tkt_gx_1",
      patch: { team_id: "billing" },
    });
    expect(sc(theirs).outcome, text(theirs)).toBe("not_found");
    expect((await ticket("tkt_7")).team_id).toBe("billing");
  });
});
