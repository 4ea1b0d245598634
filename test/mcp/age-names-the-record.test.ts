import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sameCreatedAt } from "../helpers/same-created-at";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;

/**
 * Issue 23: "the oldest open shipping ticket" names the oldest of the tickets those words
 * describe, whether or not it can take the change. The engine picked the oldest among those
 * that could, so when the oldest was already urgent a newer one was bumped instead — at once, as a
 * priority change needs nobody's approval. The record the words name is now taken, its own checks
 * answer (already so, or its state refuses it), and the start ends; nothing else is changed.
 * Real MCP client over HTTP, the gateway and the legacy service.
 */
describe("age words name the record they describe, never one that can take the change in its place", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string, body?: Json) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, {
        method: body ? "PATCH" : "GET",
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          "content-type": "application/json",
          "idempotency-key": `k-${Math.random()}`,
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    ).json()) as Json;
  const priorities = async () =>
    Object.fromEntries(
      ((await legacy("/v1/tickets?per_page=100")).data as Json[]).map((t) => [t.id, t.priority]),
    );
  const start = async (who: "sam" | "alice", args: Json) =>
    (await w.connect(w.keys[who])).callTool({ name: "start_action", arguments: args });

  /** The start ended on the record the words name, with this reason; nothing was changed. */
  function expectEndedOn(result: unknown, field: string, id: string, reason: string) {
    const s = sc(result);
    expect(s, text(result)).toMatchObject({ outcome: "rejected", status: "refused", reason });
    expect((s.from_words as Json)[field]).toBe(id);
    expect(text(result)).toMatch(
      new RegExp(`taken from the words: ${field} = ${id} \\(the (oldest|newest) `),
    );
  }

  it("the oldest open shipping ticket is already urgent: that one is named and the start ends; the newer one keeps its priority", async () => {
    await legacy("/v1/tickets/tkt_2", { priority: "urgent" });
    await legacy("/v1/tickets/tkt_9", { priority: "normal" });
    const before = await priorities();
    for (const args of [
      { intent: "Bump the oldest open shipping ticket to urgent" },
      {
        capability: "change_ticket_priority",
        intent: "Bump the oldest open shipping ticket to urgent",
        patch: { priority: "urgent" },
      },
    ]) {
      const result = await start("sam", args);
      expectEndedOn(result, "ticket_id", "tkt_2", "same_priority");
      expect(text(result).split("\n")[0]).toMatch(/already urgent: nothing to change/);
    }
    expect(await priorities()).toEqual(before);
  });

  it("the newest open shipping ticket is already urgent: the older one is not bumped in its place", async () => {
    const before = await priorities();
    const result = await start("sam", {
      capability: "change_ticket_priority",
      intent: "Bump the newest open shipping ticket to urgent",
      patch: { priority: "urgent" },
    });
    expectEndedOn(result, "ticket_id", "tkt_9", "same_priority");
    expect(await priorities()).toEqual(before);
  });

  it("the oldest shipping ticket is closed: its state refuses the change, and no younger one takes it", async () => {
    const before = await priorities();
    const result = await start("sam", { intent: "Bump the oldest shipping ticket to urgent" });
    expectEndedOn(result, "ticket_id", "tkt_8", "ticket_closed");
    expect(await priorities()).toEqual(before);
  });

  it("two as old at the asked end name no one record: the list says its order and nothing runs", async () => {
    // tkt_2 is made as old as tkt_1 (the demo opens no two at one instant); tkt_1 is then the one
    // of them already urgent.
    sameCreatedAt(w.legacy, "tkt_2", "tkt_1");
    await legacy("/v1/tickets/tkt_1", { priority: "urgent" });
    const before = await priorities();
    const result = await start("sam", {
      capability: "change_ticket_priority",
      intent: "Bump the oldest open ticket to urgent",
      patch: { priority: "urgent" },
    });
    const s = sc(result);
    expect(s.status).not.toBe("completed");
    expect((s.from_words as Json | undefined)?.ticket_id).toBeUndefined();
    expect(text(result)).toMatch(
      /^options\.tickets \(for ticket_id; .*those that can take it first, then oldest first by creation\):$/m,
    );
    // Said as a question for the user, not left for the agent to settle by the list's order.
    expect(text(result)).toMatch(
      /the oldest open ticket is one of 2 as old: tkt_[12], tkt_[12]; ask the user which one/,
    );
    expect(await priorities()).toEqual(before);
  });

  it("my oldest order cannot be refunded: that one is named and the start ends; no newer order is put up for approval", async () => {
    for (const patch of [{ kind: "refund_only" }, {}]) {
      const result = await start("alice", {
        capability: "after_sales",
        intent: "refund my oldest order",
        patch,
      });
      const s = sc(result);
      expect(s, text(result)).toMatchObject({ outcome: "rejected", status: "refused" });
      expect((s.from_words as Json).order_id).toBe("ord_delivered_old");
    }
    const newest = await start("alice", {
      capability: "after_sales",
      intent: "refund my newest order",
      patch: { kind: "refund_only" },
    });
    expectEndedOn(newest, "order_id", "ord_pending", "order_not_paid");
  });

  // Review 60e: "the last reply" named no ticket, and the newest ticket was taken over the one
  // the words named by its id (a note posted on tkt_9 for tkt_3).
  it("an age word that names no record leaves the record named by its id", async () => {
    for (const intent of [
      "Add a comment on tkt_3 since the last reply was bad: the refund is on its way.",
      "Add an internal note on tkt_3, because the last comment was wrong: check the refund.",
    ]) {
      const out = await start("sam", { intent, dry_run: true });
      expect((sc(out).from_words as Json | undefined)?.ticket_id, intent).toBe("tkt_3");
    }
  });
});
