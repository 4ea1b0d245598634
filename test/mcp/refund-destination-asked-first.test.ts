import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

/**
 * Played: "Return the two mugs from my kettle order and put the money on my store credit."
 * ord_delivered was paid by card, and a refund only goes back to how an order was paid: the
 * request went straight to Alice's approval saying "not store credit as asked", and she declined.
 * A destination the user asked for that cannot be honoured now stops before approval, naming
 * refund_to and where the money can go, for the agent to ask the user; the destination they
 * accept carries it on to approval. Through start_action, advance_action and the form alike.
 */
describe("a refund destination the shop cannot use is asked before approval (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const MUGS_TO_CREDIT = "Return the two mugs from my kettle order and put the money on my store credit.";
  const approvals = (actionId: unknown) => w.db.approval.count({ where: { actionId: String(actionId) } });

  it("store credit asked in the words: input_required on refund_to, then the card the user accepts goes to approval", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({ name: "start_action", arguments: { intent: MUGS_TO_CREDIT } });
    const s = sc(out);
    const t = text(out);
    expect(s).toMatchObject({ outcome: "input_required", status: "open" });
    expect(s.validation_errors).toContainEqual(
      expect.objectContaining({ field: "refund_to", code: "refund_destination_unavailable" }),
    );
    expect(t).toMatch(
      /the money can only go back to how ord_delivered was paid \(Visa •••• 4242\), not to store credit as the user asked; ask the user whether Visa •••• 4242 is fine, then send refund_to: "card"/,
    );
    expect(t).not.toMatch(/approve at/);
    expect(await approvals(s.action_id)).toBe(0);

    const on = await alice.callTool({
      name: "advance_action",
      arguments: { action_id: s.action_id, version: s.version, patch: { refund_to: "card" } },
    });
    expect(sc(on)).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
    expect(text(on)).toMatch(
      /Money goes to: Visa •••• 4242 \(how the order was paid; a refund goes nowhere else\)/,
    );
    expect(text(on)).not.toMatch(/not store credit/);
  });

  it("refund_to sent as store credit stops the same way; clearing it carries the request on", async () => {
    const alice = await w.connect(w.keys.alice);
    const s = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          capability: "after_sales",
          entity_id: "ord_delivered",
          patch: {
            kind: "return_refund",
            item_ids: ["ord_delivered_item_2"],
            reason: "not needed",
            refund_to: "balance",
          },
        },
      }),
    );
    expect(s).toMatchObject({ outcome: "input_required", status: "open" });
    expect(String(s.message)).toMatch(/send refund_to: "card" \(or refund_to: null\)/);
    const on = sc(
      await alice.callTool({
        name: "advance_action",
        arguments: { action_id: s.action_id, version: s.version, patch: { refund_to: null } },
      }),
    );
    expect(on).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
  });

  it("the form's submit with the same words asks the same question, never an approval", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const out = await alice.callTool({
      name: "submit",
      arguments: { uri: "shop://order/ord_delivered/after-sales", fields: { user_words: MUGS_TO_CREDIT } },
    });
    const page = text(out);
    expect(sc(out).outcome).toBe("input_required");
    expect(page).toContain("after_sales · open · version 1 · step ");
    expect(page).toMatch(/ask the user whether Visa •••• 4242 is fine/);
    expect(page).toContain("- **refund_to:** said above");
  });

  it("no destination named, or the one it was paid with: on to approval as before", async () => {
    const alice = await w.connect(w.keys.alice);
    for (const intent of [
      "Return the two mugs from my kettle order",
      "Return the two mugs from my kettle order, refund to my card",
    ]) {
      w.legacy.reset();
      const out = await alice.callTool({ name: "start_action", arguments: { intent } });
      expect(sc(out), intent).toMatchObject({ outcome: "applied", status: "awaiting_approval" });
      expect(text(out)).toMatch(
        /Money goes to: Visa •••• 4242 \(how the order was paid; a refund goes nowhere else\)/,
      );
    }
  });

  it("two destinations refused, joined by 'or' with prepositions of their own, are both refused (review 64)", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = sc(
      await alice.callTool({
        name: "start_action",
        arguments: {
          intent:
            "Return the mug from ord_exchange, it is too small. Refund it, but not to my card or into store credit",
        },
      }),
    );
    expect(out.status).toBe("open");
    expect(out.validation_errors).toContainEqual(
      expect.objectContaining({ field: "refund_to", code: "refund_destination_unavailable" }),
    );
  });

  it("the order a return is chosen from says where its refund goes, before any approval (set CF)", async () => {
    const alice = await w.connect(w.keys.alice);
    const out = await alice.callTool({
      name: "start_action",
      arguments: {
        intent: "The mug from my tee and mug order arrived chipped: return it for my store balance",
      },
    });
    expect(sc(out).status).toBe("open");
    expect(text(out)).toContain("refund_goes_to: store credit (how it was paid)");
  });
});
