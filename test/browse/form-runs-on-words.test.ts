import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

/**
 * A change through a form costs no more calls than start_action by the user's words, under the
 * same rule (issue 23 item 3): a change nobody must approve runs at once only on a record the
 * user's words named, or the only one it fits. The form carries the words (`user_words`) to the
 * start as its intent, so the engine's own check decides; a person's approval is never skipped.
 * Real MCP client over HTTP, real gateway and legacy service.
 */
describe("a form's submit runs a change where start_action by words would (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (path: string) =>
    (await (
      await fetch(`${w.legacy.url}/v1/${path}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      })
    ).json()) as Record<string, unknown>;
  const addressOf = async (order: string) => ((await legacy(`orders/${order}`)).address as { id: string }).id;
  const actionIdIn = (markdown: string) =>
    /(?:actions:\/\/|Action )([A-Za-z0-9_-]+)/.exec(markdown)?.[1] ?? "";
  const ADDRESS = "shop://order/ord_pending/address";

  it("shows the field on every change: it runs one nobody must approve, and fills one a person approves", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const page = async (c: typeof alice, uri: string) =>
      text(await c.callTool({ name: "navigate", arguments: { uri } }));
    expect(await page(alice, ADDRESS)).toMatch(
      /^ {2}user_words: "" {2}# optional — string — the user's request/m,
    );
    for (const form of ["priority", "assign", "comment", "resolve"])
      expect(await page(sam, `helpdesk://ticket/tkt_2/${form}`), form).toContain("user_words:");
    // Where a person always decides, the words fill the fields they name, and the person approves
    // (set R: a model read the checkout form and searched the catalogue before its submit).
    // Set AD: the models still searched the catalog for ids; the form says first that the words
    // alone fill what they name, by name or label.
    for (const uri of ["shop://order/ord_delivered/after-sales", "shop://checkout"]) {
      const form = await page(alice, uri);
      expect(form, uri).toMatch(
        /^ {2}user_words: "" {2}# optional — string — the user's request, verbatim \(never your words\); a person approves before anything happens$/m,
      );
      expect(form, uri).toContain(
        "`user_words` alone (the user's request, verbatim) fills every field it names, by name or label (no ids needed)",
      );
    }
  });

  it("the user's words name the record: the submit runs the change and its answer is the result", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    expect(await addressOf("ord_pending")).toBe("addr_alice_office");
    const out = await alice.callTool({
      name: "submit",
      arguments: {
        uri: ADDRESS,
        fields: { address_id: "Home", user_words: "Ship my kettle order to my home address" },
      },
    });
    const markdown = text(out);
    expect(sc(out).outcome).toBe("applied");
    expect(markdown).toMatch(/ · completed · version/);
    expect(markdown).toMatch(/verified at the system of record/);
    expect(markdown).toContain("_Nothing more to do here._");
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
    const actionId = actionIdIn(markdown);
    expect(await w.db.effect.count({ where: { actionId } })).toBe(1);
    // Each step keeps its own row: the submit, the start, the confirm the gateway made.
    const rows = await w.db.auditEvent.findMany({
      where: { tenantId: "acme", operation: { in: ["action.started", "action.confirmed"] }, actionId },
    });
    expect(rows.map((r) => r.operation).sort()).toEqual(["action.confirmed", "action.started"]);

    // The same submit resent (its answer lost): the same action's outcome, never a second change.
    const again = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: ADDRESS,
          fields: { address_id: "Home", user_words: "Ship my kettle order to my home address" },
        },
      }),
    );
    expect(actionIdIn(again)).toBe(actionId);
    expect(await w.db.effect.count({ where: { action: { capability: "change_delivery_address" } } })).toBe(1);
  });

  it("where a search finds the form, it says the user's words go with it; the form's submit with them alone is the one call", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const found = text(
      await alice.callTool({
        name: "search",
        arguments: { query: "change the delivery address of my kettle order to home" },
      }),
    );
    // The best form's line carries its fields, user_words among them, and the line saying what they do.
    expect(found).toContain(
      "- `shop://order/{id}/address` (Shop) — Change delivery address — `address_id* · user_words`",
    );
    expect(found).toMatch(/^Submit from the line \(\* required; user_words: the user's request verbatim/m);
    expect(found).toMatch(/`change_delivery_address` — .*\(form: `shop:\/\/order\/\{id\}\/address`\)/);
    // Every capability line names its form (the third match on "order" alone is cancel_unpaid_order now).
    expect(found).toMatch(/`cancel_unpaid_order` — .*\(form: `shop:\/\/order\/\{id\}\/cancel`\);/);
    // The words fill the address from its label, name the order, and run the change.
    const out = text(
      await alice.callTool({
        name: "submit",
        arguments: { uri: ADDRESS, fields: { user_words: "Ship my kettle order to my home address" } },
      }),
    );
    expect(out).toMatch(/ · completed · version/);
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
  });

  it("a record the words quote by id runs at once too (a ticket's priority)", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const out = text(
      await sam.callTool({
        name: "submit",
        arguments: {
          uri: "helpdesk://ticket/tkt_3/priority",
          fields: { priority: "urgent", user_words: "Bump tkt_3 to urgent please" },
        },
      }),
    );
    expect(out).toMatch(/ · completed · version/);
    expect((await legacy("tickets/tkt_3")).priority).toBe("urgent");
  });

  it("without the user's words, or with words that name no record, it waits: one line why, and the one call that runs it", async () => {
    const alice = await w.connect(w.keys.alice);
    // The tests above started changes on ord_pending by words naming it, minutes ago: those words
    // would name it for this agent's next start (named-earlier.ts). This one is a new conversation.
    await w.db.action.deleteMany({ where: { entityId: "ord_pending" } });
    for (const fields of [
      { address_id: "Home" },
      { address_id: "Home", user_words: "change the delivery address to my home" },
    ]) {
      const out = await alice.callTool({ name: "submit", arguments: { uri: ADDRESS, fields } });
      const markdown = text(out);
      expect(markdown).toMatch(/ · open · version \d/);
      // With words that name no record: why, the candidates to ask the user about, then the call.
      // With none: the others counted (submit-page-says-why.test.ts).
      if ("user_words" in fields) {
        expect(markdown).toMatch(/ord_pending was sent, but the user's words do not name it and 1 other/);
        expect(markdown).toMatch(/^- ord_paid /m);
      } else
        expect(markdown).toMatch(/ask the user whether they mean ord_pending \(1 other record would take/);
      expect(markdown).toMatch(
        /one call runs it: `confirm_action \{"action_id":"[a-z0-9]+","version":1,"idempotency_key":"<a new key>"\}`/i,
      );
      // Without the words, the one call that runs it with them comes first (form-links-carry-fields.test.ts).
      expect(markdown.includes("If the user's words name ord_pending, submit")).toBe(
        !("user_words" in fields),
      );
      // What was just sent from is not said again: no choices, no form with the fields emptied.
      expect(markdown).not.toContain("## Choices");
      expect(markdown).not.toContain("```yaml");
      expect(await addressOf("ord_pending")).toBe("addr_alice_office");
    }
    // The call it names runs it.
    const waiting = actionIdIn(
      text(
        await alice.callTool({ name: "submit", arguments: { uri: ADDRESS, fields: { address_id: "Home" } } }),
      ),
    );
    const done = sc(
      await alice.callTool({
        name: "confirm_action",
        arguments: { action_id: waiting, version: 1, idempotency_key: "form-address-confirm-1" },
      }),
    );
    expect(done).toMatchObject({ outcome: "applied", status: "completed" });
    expect(await addressOf("ord_pending")).toBe("addr_alice_home");
  });

  it("a change a person must approve still goes to the person, whatever the words", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    // Across teams (billing → shipping): the policy asks an admin; the words name the ticket.
    const assigned = text(
      await sam.callTool({
        name: "submit",
        arguments: {
          uri: "helpdesk://ticket/tkt_1/assign",
          fields: { assignee_id: "tm_sid", user_words: "Assign tkt_1 to Sid" },
        },
      }),
    );
    expect(assigned).toMatch(/ · awaiting_approval · version \d/);
    expect(assigned).not.toContain("Not run yet");
    expect(await w.db.effect.count({ where: { actionId: actionIdIn(assigned) } })).toBe(0);
    expect((await legacy("tickets/tkt_1")).assignee_id).toBeNull();

    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const refund = text(
      await alice.callTool({
        name: "submit",
        arguments: {
          uri: "shop://order/ord_delivered/after-sales",
          fields: {
            kind: "return_refund",
            reason: "It is too loud",
            item_ids: ["ord_delivered_item_1"],
            user_words: "Return the kettle from order ord_delivered, it is too loud",
          },
        },
      }),
    );
    expect(refund).toMatch(/ · awaiting_approval · version \d/);
    expect(await w.db.effect.count({ where: { actionId: actionIdIn(refund) } })).toBe(0);
  });

  it("words that are not text are refused on the form, and nothing is started", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const before = await w.db.action.count();
    const out = await alice.callTool({
      name: "submit",
      arguments: { uri: ADDRESS, fields: { address_id: "Home", user_words: ["ord_pending"] } },
    });
    expect(sc(out).outcome).toBe("rejected");
    expect(text(out)).toMatch(/user_words:\*\* the user's request as text/);
    expect(await w.db.action.count()).toBe(before);
  });
});
