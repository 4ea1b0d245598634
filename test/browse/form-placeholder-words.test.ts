import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { legacyJson } from "../helpers/legacy-json";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * Sets BG and BL: models searched for a record only to learn its id, then submitted its form (two
 * calls where the wrapper's model, which had the id from a listing, took one). A form's link sent
 * with its placeholder as written (`helpdesk://ticket/{id}/reopen`) and the user's words is the
 * form of the record the words name, submitted at that record's own link: its permission, audit
 * and approval are the concrete form's (review 59b: a first version authorized `{id}` itself, and
 * a deny rule on one record was bypassed). Real MCP client over HTTP, gateway and legacy helpdesk.
 */
describe("a form's {id} left as written takes the record the user's words name", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const submit = async (key: string, uri: string, user_words: string) => {
    const client = await w.connect(key, { faces: "browse" });
    return client.callTool({ name: "submit", arguments: { uri, fields: { user_words } } });
  };

  it("reopens the ticket the words name, at its own link", async () => {
    const out = await submit(
      w.keys.sam,
      "helpdesk://ticket/{id}/reopen",
      "Reopen the coupon not applied ticket: the customer wrote again.",
    );
    expect(text(out)).toContain("[Back to ticket tkt_5](helpdesk://ticket/tkt_5)");
    expect(await legacyJson(w.legacy, "tickets/tkt_5")).toMatchObject({ status: "open" });
  });

  it("words naming no one record change nothing and say so", async () => {
    const before = await legacyJson(w.legacy, "tickets");
    for (const [uri, words] of [
      ["helpdesk://ticket/{id}/close", "Close the ticket."],
      ["helpdesk://ticket/{id}/close", ""],
      ["helpdesk://ticket/{id}", "Close the parcel damaged ticket."],
      ["helpdesk://ticket/{id}/{id}", "Close the parcel damaged ticket."],
    ]) {
      const out = await submit(w.keys.sam, uri as string, words as string);
      expect(sc(out).outcome, `${uri} ${words}`).toBe("rejected");
      expect(text(out)).toMatch(/^# Which record\?/m);
    }
    expect(await legacyJson(w.legacy, "tickets")).toEqual(before);
  });

  it("a deny rule on the record's form holds", async () => {
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent.sam.agentId ?? null,
        verb: "submit",
        pattern: "helpdesk://ticket/tkt_9/assign",
        decision: "deny",
        position: -50,
      },
    });
    try {
      const out = await submit(
        w.keys.sam,
        "helpdesk://ticket/{id}/assign",
        "Assign the wrong size tee ticket to Sid.",
      );
      expect(sc(out).outcome).not.toBe("applied");
      expect(await legacyJson(w.legacy, "tickets/tkt_9")).toMatchObject({ assignee_id: null });
    } finally {
      await w.db.permissionRule.deleteMany({ where: { pattern: "helpdesk://ticket/tkt_9/assign" } });
    }
  });

  // Review 60d: the dry run that reads the record ran before any browse rule, and its words named
  // the records behind a denied system; a one-time grant of the start was spent by it.
  it("behind a denied system or record, the answer names no record", async () => {
    const rule = (who: "alice" | "sam", pattern: string) =>
      w.db.permissionRule.create({
        data: {
          tenantId: "acme",
          subjectType: "agent",
          subjectId: w.agent[who].agentId ?? null,
          verb: "*",
          pattern,
          decision: "deny",
          position: -50,
        },
      });
    await rule("sam", "helpdesk://**");
    await rule("alice", "shop://order/ord_paid/**");
    try {
      for (const [key, uri, words] of [
        [w.keys.sam, "helpdesk://ticket/{id}/close", "Close the resolved ticket."],
        [w.keys.sam, "helpdesk://ticket/{id}/assign", "Give the coupon ticket to Sid."],
        [w.keys.alice, "shop://order/{id}/cancel", "Cancel the lamp order."],
        [w.keys.alice, "shop://order/{id}/after-sales", "Refund the mug on my lamp order."],
      ] as const) {
        const out = text(await submit(key, uri, words));
        expect(out, `${uri} ${words}`).toMatch(/^# Which record\?/m);
        expect(out).not.toMatch(/tkt_\d|ord_paid|Desk Lamp|resolved/);
      }
    } finally {
      await w.db.permissionRule.deleteMany({ where: { decision: "deny", position: -50 } });
    }
  });

  // Review 60e: a navigate deny on one ticket hid it from search, and its form by `{id}` changed it.
  it("a record whose page may not be read is not taken from the words", async () => {
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: w.agent.sam.agentId ?? null,
        verb: "navigate",
        pattern: "helpdesk://ticket/tkt_2",
        decision: "deny",
        position: -50,
      },
    });
    try {
      const out = text(
        await submit(w.keys.sam, "helpdesk://ticket/{id}/priority", "Make the headphones ticket urgent."),
      );
      expect(out).toMatch(/^# Which record\?/m);
      expect(out).not.toContain("headphones?");
      expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "normal" });
    } finally {
      await w.db.permissionRule.deleteMany({ where: { decision: "deny", position: -50 } });
    }
  });

  it("a one-time grant of the start is left for the real start", async () => {
    const agentId = w.agent.sam.agentId as string;
    await w.db.permissionRule.create({
      data: {
        tenantId: "acme",
        subjectType: "agent",
        subjectId: agentId,
        verb: "start",
        pattern: "capability:close_ticket",
        decision: "ask",
        position: -50,
      },
    });
    const grant = await w.db.permissionRequest.create({
      data: {
        tenantId: "acme",
        agentId,
        verb: "start",
        target: "capability:close_ticket",
        status: "granted",
        grantMode: "once",
      },
    });
    try {
      // Review 60e: a dry run spends a one-time grant, as any start does (else one grant allowed
      // every dry run): where only a grant allows the start, no record is read from the words.
      const out = await submit(
        w.keys.sam,
        "helpdesk://ticket/{id}/close",
        "Close the parcel damaged ticket.",
      );
      expect(text(out)).toMatch(/^# Which record\?/m);
      expect((await w.db.permissionRequest.findUnique({ where: { id: grant.id } }))?.status).toBe("granted");
      await submit(w.keys.sam, "helpdesk://ticket/tkt_6/close", "Close the parcel damaged ticket.");
      expect(await legacyJson(w.legacy, "tickets/tkt_6")).toMatchObject({ status: "closed" });
      expect((await w.db.permissionRequest.findUnique({ where: { id: grant.id } }))?.status).toBe("used");
    } finally {
      await w.db.permissionRule.deleteMany({ where: { decision: "ask", position: -50 } });
    }
  });

  it("another tenant's words reach none of this tenant's records", async () => {
    const out = await submit(
      w.keys.gina,
      "shop://order/{id}/cancel",
      "Cancel my unpaid kettle order ord_pending.",
    );
    expect(sc(out).outcome).not.toBe("applied");
    expect(text(out)).not.toContain("ord_pending)");
    expect(await legacyJson(w.legacy, "orders/ord_pending")).toMatchObject({ status: "pending_payment" });
  });
});
