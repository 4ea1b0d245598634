import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { approve } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Set AV (played): "Unassign the where are my headphones ticket and move it to billing" found no
 * capability on either host; the model tried assign_ticket with a null assignee, cancelled it
 * and searched (4–5 calls, the wrapper's PATCH one). unassign_ticket takes a ticket off its
 * assignee once the person approves (review 56c: remarks ran it at once); the move stays the admin's.
 * Seed: tkt_2 (open, Sid), tkt_9 (open, nobody), tkt_6 (resolved, Sid).
 */
describe("unassign a ticket (MCP over HTTP, real gateway and legacy helpdesk)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const start = async (intent: string) =>
    (await w.connect(w.keys.sam)).callTool({ name: "start_action", arguments: { intent } });
  const ticket = async (id: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/tickets/${id}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as Record<string, unknown>;

  it("the words name the ticket and whom to take off; the person approves; verified and audited", async () => {
    const out = await start("Unassign Sid from the where are my headphones ticket.");
    expect(sc(out)).toMatchObject({ capability: "unassign_ticket", status: "awaiting_approval" });
    // Review 56c: a remark naming the holder ran it at once; now nothing moves before the person.
    expect((await ticket("tkt_2")).assignee_id).toBe("tm_sid");
    const id = String(sc(out).action_id);
    const decided = await approve(w, id, w.person.sam);
    expect(decided.result?.outcome).toBe("applied");
    expect((await ticket("tkt_2")).assignee_id).toBeNull();
    const audit = await w.db.auditEvent.findMany({ where: { actionId: id } });
    expect(audit.map((a) => a.operation)).toEqual(expect.arrayContaining(["action.started"]));
    expect(await w.db.effect.count({ where: { kind: "helpdesk.unassignment" } })).toBe(1);
  });

  it("a remark that the holder was taken off runs nothing", async () => {
    for (const remark of [
      "Sid was unassigned from the headphones ticket",
      "Sid got unassigned from the headphones ticket",
    ])
      expect(sc(await start(remark)).status).not.toBe("completed");
    expect((await ticket("tkt_2")).assignee_id).toBe("tm_sid");
  });

  // Review 56: the words named another teammate than the holder, or nobody, or only said
  // something about the ticket: the holder was taken off at once.
  it("a teammate named who does not hold it is refused; nobody named is asked; a remark runs nothing", async () => {
    const bella = await start("Unassign Bella from the headphones ticket");
    expect(sc(bella)).toMatchObject({ outcome: "rejected", reason: "not_holder" });
    expect(text(bella)).toMatch(/Bella Billing does not hold this ticket; Sid Shipping does/);
    const unnamed = await start("Unassign the headphones ticket");
    expect(sc(unnamed)).toMatchObject({ status: "open", missing: ["assignee_id"] });
    expect(text(unnamed)).toMatch(/`tm_sid` Sid Shipping/);
    // Review 57: taking the holder by default (a call fewer) took Sid off for "Unassign Samantha
    // from …" and "Unassign me from …", said as "the user named none". Whom is asked.
    for (const other of [
      "Unassign Samantha from the headphones ticket",
      "Unassign me from the headphones ticket",
    ]) {
      const out = await start(other);
      expect(sc(out).status, other).not.toBe("awaiting_approval");
      expect(text(out), other).not.toMatch(/the user named none/);
    }
    for (const remark of [
      "Nobody touched the headphones ticket",
      "Nobody is working on the headphones ticket",
    ])
      expect(sc(await start(remark)).status).not.toBe("completed");
    expect((await ticket("tkt_2")).assignee_id).toBe("tm_sid");
  });

  it("a ticket nobody holds is already so: nothing runs", async () => {
    const out = await start("Unassign the wrong size tee ticket.");
    expect(sc(out).status).not.toBe("completed");
    expect(text(out)).toMatch(/Nobody is assigned/);
  });

  it("a resolved ticket is refused, its assignee kept", async () => {
    const out = await start("Unassign the parcel damaged ticket.");
    expect(sc(out).status).not.toBe("completed");
    expect((await ticket("tkt_6")).assignee_id).toBe("tm_sid");
  });

  it("unassign and move: the unassign asks who (two asks), the move is offered as the next call", async () => {
    const out = await start("Unassign Sid from the where are my headphones ticket and move it to billing.");
    expect(sc(out)).toMatchObject({
      capability: "unassign_ticket",
      status: "open",
      missing: ["assignee_id"],
    });
    expect(text(out)).toMatch(/also asked: "move it to billing" → start_action .*move_ticket_to_team.*tkt_2/);
    expect((await ticket("tkt_2")).team_id).toBe("shipping");
  });
});
