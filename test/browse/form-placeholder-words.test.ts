import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withAgentRule } from "../helpers/agent-rule";
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

  const sam = () => w.agent.sam.agentId ?? null;
  const alice = () => w.agent.alice.agentId ?? null;

  it("a deny rule on the record's form holds", async () => {
    const rule = {
      agentId: sam(),
      verb: "submit",
      pattern: "helpdesk://ticket/tkt_9/assign",
      decision: "deny",
    } as const;
    await withAgentRule(w.db, rule, async () => {
      const out = await submit(
        w.keys.sam,
        "helpdesk://ticket/{id}/assign",
        "Assign the wrong size tee ticket to Sid.",
      );
      expect(sc(out).outcome).not.toBe("applied");
      expect(await legacyJson(w.legacy, "tickets/tkt_9")).toMatchObject({ assignee_id: null });
    });
  });

  // Review 60d: the dry run that reads the record ran before any browse rule, and its words named
  // the records behind a denied system.
  it("behind a denied system or record, the answer names no record", async () => {
    const denied = async (key: string, uri: string, words: string) => {
      const out = text(await submit(key, uri, words));
      expect(out, `${uri} ${words}`).toMatch(/^# Which record\?/m);
      expect(out).not.toMatch(/tkt_\d|ord_paid|Desk Lamp|resolved/);
    };
    await withAgentRule(
      w.db,
      { agentId: sam(), verb: "*", pattern: "helpdesk://**", decision: "deny" },
      async () => {
        await denied(w.keys.sam, "helpdesk://ticket/{id}/close", "Close the resolved ticket.");
        await denied(w.keys.sam, "helpdesk://ticket/{id}/assign", "Give the coupon ticket to Sid.");
      },
    );
    const paid = {
      agentId: alice(),
      verb: "*",
      pattern: "shop://order/ord_paid/**",
      decision: "deny",
    } as const;
    await withAgentRule(w.db, paid, async () => {
      await denied(w.keys.alice, "shop://order/{id}/cancel", "Cancel the lamp order.");
      await denied(w.keys.alice, "shop://order/{id}/after-sales", "Refund the mug on my lamp order.");
    });
  });

  // Review 60e: a navigate deny on one ticket hid it from search, and its form by `{id}` changed it.
  it("a record whose page may not be read is not taken from the words", async () => {
    const rule = {
      agentId: sam(),
      verb: "navigate",
      pattern: "helpdesk://ticket/tkt_2",
      decision: "deny",
    } as const;
    await withAgentRule(w.db, rule, async () => {
      const out = text(
        await submit(w.keys.sam, "helpdesk://ticket/{id}/priority", "Make the headphones ticket urgent."),
      );
      expect(out).toMatch(/^# Which record\?/m);
      expect(out).not.toContain("headphones?");
      expect(await legacyJson(w.legacy, "tickets/tkt_2")).toMatchObject({ priority: "normal" });
    });
  });

  // Review 60e: a dry run spends a one-time grant, as any start does (else one grant allowed every
  // dry run): where only a grant allows the start, no record is read from the words.
  it("a one-time grant of the start is left for the real start", async () => {
    const agentId = sam() as string;
    const rule = { agentId, verb: "start", pattern: "capability:close_ticket", decision: "ask" } as const;
    await withAgentRule(w.db, rule, async () => {
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
      const status = async () =>
        (await w.db.permissionRequest.findUnique({ where: { id: grant.id } }))?.status;
      const out = await submit(
        w.keys.sam,
        "helpdesk://ticket/{id}/close",
        "Close the parcel damaged ticket.",
      );
      expect(text(out)).toMatch(/^# Which record\?/m);
      expect(await status()).toBe("granted");
      await submit(w.keys.sam, "helpdesk://ticket/tkt_6/close", "Close the parcel damaged ticket.");
      expect(await legacyJson(w.legacy, "tickets/tkt_6")).toMatchObject({ status: "closed" });
      expect(await status()).toBe("used");
    });
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
