// stays-whole: one started shop world whose after-sales and record-view cases read as one story.
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { renderOutcomeText } from "@/mcp/outcome-text";
import { createWorld, idem, type World } from "../gateway/gateway-world";
import { describeEachProvider } from "../helpers/database";

/** After-sales picks the path from the order's state; views say what may be done now and why not. */
describeEachProvider(
  "after-sales, address change, tracking and order views (%s, real legacy service)",
  (provider) => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(provider);
    });
    afterAll(async () => w?.close());
    beforeEach(async () => w.legacy.reset());

    async function run(orderId: string, patch: Record<string, unknown>) {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: orderId,
        patch,
      });
      expect(s.outcome, JSON.stringify(s.validation_errors)).toBe("applied");
      await w.gw.decideApproval(w.person.alice, {
        action_id: s.action_id as string,
        version: s.version as number,
        decision: "approve",
      });
      const c = await w.gw.confirmAction(w.agent.alice, { action_id: s.action_id, idempotency_key: idem() });
      expect(c.outcome, c.message).toBe("applied");
      const v = await w.gw.verifyAction(w.agent.alice, { action_id: s.action_id });
      return { s, c, v };
    }

    // The fields still missing once the path is chosen: a return of several lines asks which.
    const paths: Array<[string, string, string | null, string[]?]> = [
      ["ord_pending", "pending_payment", null],
      ["ord_paid", "paid", "refund_only", ["reason"]],
      ["ord_transit", "shipped", null],
      ["ord_delivered", "delivered", "return_refund", ["reason", "item_ids"]],
      ["ord_delivered_old", "delivered 45 days ago", null],
      ["ord_cancelled", "cancelled", null],
    ];
    it.each(paths)("%s (%s): the path chosen is %s", async (orderId, _state, expected, missing) => {
      const s = await w.gw.startAction(w.agent.alice, { capability: "after_sales", entity_id: orderId });
      const offered =
        (s.options as { after_sales?: Array<{ kind: string; eligible: boolean; message: string }> })
          .after_sales ?? [];
      // Every path is listed, and each one that does not apply says why.
      expect(offered.map((p) => p.kind)).toEqual([
        "refund_only",
        "return_refund",
        "exchange",
        "shipping_refund",
      ]);
      for (const p of offered) if (!p.eligible) expect(p.message.length).toBeGreaterThan(10);
      if (expected) expect(s).toMatchObject({ node: "DETAILS", missing });
      else
        expect(s.validation_errors).toEqual([expect.objectContaining({ code: "no_after_sales_available" })]);
      const eligible = offered.filter((p) => p.eligible).map((p) => p.kind);
      expect(eligible).toEqual(expected ? [expected] : []);
    });

    it("an order with an exchangeable item offers return or exchange and asks which", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_exchange",
      });
      expect(s).toMatchObject({ node: "PATH", missing: ["kind"] });
      const eligible = (
        s.options as { after_sales: Array<{ kind: string; eligible: boolean }> }
      ).after_sales.filter((p) => p.eligible);
      expect(eligible.map((p) => p.kind)).toEqual(["return_refund", "exchange"]);
    });

    it("refund-only on an in-transit order is refused with the reason", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_transit",
        patch: { kind: "refund_only", reason: "too slow" },
      });
      // No other path is open either: a refusal (the monitor's "rejected" filter finds it).
      expect(s).toMatchObject({ outcome: "rejected", reason: "order_already_shipped" });
      expect(s.validation_errors).toEqual([
        expect.objectContaining({
          field: "kind",
          code: "order_already_shipped",
          message: expect.stringMatching(/in transit.*before shipment/),
        }),
      ]);
      // Nothing the agent could send helps now: the way forward is what is possible instead,
      // or another order; the refused start ended, so nothing is left to cancel.
      expect(s.next_actions).toEqual([
        expect.objectContaining({
          tool: "start_action",
          args: { capability: "track_shipment", entity_id: "ord_transit" },
        }),
        expect.objectContaining({ tool: "start_action", args: { capability: "after_sales" } }),
      ]);
    });

    it("refund-only of the whole unshipped order says it cancels the order, in the summary the person approves and the agent's text", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_paid",
        patch: { kind: "refund_only", reason: "changed my mind" },
      });
      const summary = s.summary as Record<string, unknown>;
      expect(summary.order_after).toMatch(/^Cancelled: ord_paid will not ship/);
      // Two items: the line says both go and that no item is taken off alone (set V).
      expect(summary.order_after).toMatch(
        /Desk Lamp ×1, Signpost Mug ×1.*cancelled whole, never item by item/,
      );
      expect(summary.decision).toMatchObject({ verb: "Cancel the order and refund" });
      expect(renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0])).toMatch(
        /Cancel the order and refund/,
      );
      expect(renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0])).toMatch(
        /Cancelled: ord_paid will not ship/,
      );
      // What was shown is what happens.
      await run("ord_paid", { kind: "refund_only", reason: "changed my mind" });
      const order = (await (
        await fetch(`${w.legacy.url}/v1/orders/ord_paid`, {
          headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
        })
      ).json()) as { status: string };
      expect(order.status).toBe("cancelled");
    });

    it("a dry run of something nothing makes possible says only why and what is possible instead", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_transit",
        dry_run: true,
      });
      expect(s.outcome).toBe("preview");
      expect(s.missing).toBeUndefined();
      const text = renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0]);
      expect(text).not.toMatch(/missing:|fix:|for real/);
      expect(s.next_actions).toEqual([
        expect.objectContaining({ args: { capability: "track_shipment", entity_id: "ord_transit" } }),
      ]);
    });

    it("a start refused on its order ends its own action: nothing held, nothing to cancel, a clear answer on every later call", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_transit",
      });
      // Typed refusal, the reason, what is possible instead, and no cleanup call owed.
      expect(s).toMatchObject({ outcome: "rejected", reason: "no_after_sales_available", status: "refused" });
      expect(s.next_actions).toEqual([
        expect.objectContaining({
          tool: "start_action",
          args: { capability: "track_shipment", entity_id: "ord_transit" },
        }),
        expect.objectContaining({ tool: "start_action", args: { capability: "after_sales" } }),
      ]);
      expect(s.missing).toEqual([]);
      const text = renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0]);
      expect(text).toMatch(/nothing is held or left open, nothing to cancel/);
      expect(text).not.toMatch(/stays open|cancel_action|missing:|fix:/);
      // Not a person's rejection: it takes no patch, no approval was opened, and it is listed apart.
      expect(s.allowed_patch).toEqual([]);
      expect(await w.db.approval.count({ where: { actionId: s.action_id } })).toBe(0);
      // Read again, advanced, confirmed or cancelled: each says it is over, typed, with the same ways forward.
      const context = await w.gw.getContext(w.agent.alice, { action_id: s.action_id });
      expect(context).toMatchObject({ outcome: "applied", status: "refused" });
      expect(context.message).toMatch(/refused at PATH .*nothing is held or left open/);
      expect(renderOutcomeText(context as Parameters<typeof renderOutcomeText>[0])).toMatch(/^refused: /);
      const advanced = await w.gw.operations.advance_action.run(w.agent.alice, {
        action_id: s.action_id,
        version: s.version,
        patch: { kind: "exchange" },
      });
      expect(advanced).toMatchObject({
        outcome: "rejected",
        reason: "not_in_next_actions",
        status: "refused",
      });
      expect(advanced.message).toMatch(/ended at its start/);
      expect(advanced.next_actions).toEqual(s.next_actions);
      const cancelled = await w.gw.operations.cancel_action.run(w.agent.alice, { action_id: s.action_id });
      expect(cancelled).toMatchObject({ outcome: "rejected", reason: "action_finished", status: "refused" });
      expect(cancelled.message).toMatch(/nothing to cancel/);
    });

    it("an advance onto a refused order keeps the action open: another order fits the same action", async () => {
      const s = await w.gw.startAction(w.agent.alice, { capability: "after_sales" });
      const a = await w.gw.operations.advance_action.run(w.agent.alice, {
        action_id: s.action_id,
        version: s.version,
        patch: { order_id: "ord_transit" },
      });
      expect(a).toMatchObject({ outcome: "rejected", reason: "no_after_sales_available", status: "open" });
      expect(a.next_actions.map((n) => [n.tool, n.args?.capability])).toEqual([
        ["start_action", "track_shipment"],
        ["advance_action", undefined],
        ["cancel_action", undefined],
      ]);
      const b = await w.gw.operations.advance_action.run(w.agent.alice, {
        action_id: s.action_id,
        version: a.version,
        patch: { order_id: "ord_paid" },
      });
      expect(b).toMatchObject({ outcome: "input_required", status: "open", node: "DETAILS" });
    });

    it("option rows show money as the capability declares it (cents in USD), never as a bare number, on every answer", async () => {
      const text = (o: unknown) => renderOutcomeText(o as Parameters<typeof renderOutcomeText>[0]);
      const ex = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_exchange",
        patch: { kind: "exchange" },
      });
      expect(text(ex)).toMatch(/total: \$48\.00/);
      expect(text(ex)).toMatch(/unit_price: \$25\.00/);
      // The exchangeable items are the user's choice, each with its amount (set CZ: every open
      // line, with its verdict).
      expect(text(ex)).toMatch(/`ord_exchange_item_1` \$25\.00/);
      expect(text(ex)).not.toMatch(/(total|unit_price|amount): \d/);
      // The typed result keeps the integers, and says which keys are money.
      expect(ex.money_of).toMatchObject({ currency: "USD", keys: expect.arrayContaining(["amount"]) });
      const checkout = await w.gw.startAction(w.agent.alice, { capability: "checkout" });
      expect(text(checkout)).toMatch(/unit_price: \$18\.00/);
      // An advance sends only the lists that changed: they are read as money too.
      const next = await w.gw.advanceAction(w.agent.alice, {
        action_id: checkout.action_id,
        version: checkout.version,
        patch: { items: [{ product_id: "prod_mug", quantity: 1 }], address_id: "addr_alice_office" },
      });
      // The shipping methods (the user's paid choice) are listed under missing, priced as money.
      expect(text(next)).toMatch(/`standard` \$\d+\.\d\d/);
      expect(text(next)).not.toMatch(/price: \d|`standard` \d/);
      // What the system of record says afterwards, too.
      const { v } = await run("ord_paid", { reason: "changed my mind" });
      expect(text(v)).toMatch(/amount \$316\.00/);
    });

    it("a record read with get_context shows money as its connector's capabilities on it declare it, never a bare 24900", async () => {
      const text = (o: unknown) => renderOutcomeText(o as Parameters<typeof renderOutcomeText>[0]);
      const read = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_transit" });
      expect(read.outcome).toBe("applied");
      expect(read.money_of).toMatchObject({ currency: "USD", keys: expect.arrayContaining(["unit_price"]) });
      expect(text(read)).toMatch(/\$\d+\.\d\d/);
      expect(text(read)).not.toMatch(/(total|unit_price|amount|price): \d/);
    });

    it("choices for fields the words already set are named, not listed again, while another field is asked for", async () => {
      // (The reason is the request itself, the user having given none: see defaults-marked.)
      const s = await w.gw.startAction(w.agent.alice, {
        intent: "The tee I received is too small, I want to exchange it.",
      });
      expect(s).toMatchObject({ outcome: "input_required", missing: ["replacement_product_id"] });
      const text = renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0]);
      expect(text).toMatch(/^set already, choices not repeated: .*kind/m);
      expect(text).not.toMatch(/options\.after_sales/);
      // The typed result still has them, for a client that wants them.
      expect(s.options).toHaveProperty("after_sales");
    });

    it("refund-only on a paid order refunds once", async () => {
      const { v } = await run("ord_paid", { reason: "changed my mind" });
      expect(v).toMatchObject({
        outcome: "applied",
        verification: { kind: expect.any(String), status: expect.any(String) },
      });
      expect((v.verification as { amount: number }).amount).toBeGreaterThan(0);
    });

    it("return and refund of a delivered order, with evidence for damage", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_delivered",
        patch: { reason: "the kettle arrived damaged", item_ids: ["ord_delivered_item_1"] },
      });
      expect(s).toMatchObject({ outcome: "input_required", missing: ["evidence"] });
      const { v } = await run("ord_delivered", {
        reason: "the kettle arrived damaged",
        item_ids: ["ord_delivered_item_1"],
        evidence: ["photo: dented lid"],
      });
      expect(v).toMatchObject({ outcome: "applied", verification: { kind: "return" } });
      // What the person approved is what the shop refunded.
      const approved = (
        await w.db.approval.findFirstOrThrow({
          where: { actionId: v.action_id as string, status: "approved" },
        })
      ).summary as { amount: number; evidence: unknown };
      expect((v.verification as { amount: number }).amount).toBe(approved.amount);
      // The evidence itself is what the person approved (set AV: "Photos or files: 1" hid that
      // it was the user's written note), as the shop received it.
      expect(approved.evidence).toEqual(["photo: dented lid"]);
    });

    it("a damage claim needs at least one photo or file: an empty list is refused naming the field, and 'chipped' is a damage claim", async () => {
      // Issue 23 played: the form says evidence is required when claiming damage, yet a draft
      // was accepted with "Photos or files: 0".
      const empty = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_delivered",
        patch: { reason: "the kettle arrived damaged", item_ids: ["ord_delivered_item_1"], evidence: [] },
      });
      expect(empty).toMatchObject({ outcome: "input_required", status: "open" });
      expect(empty.validation_errors).toEqual([
        expect.objectContaining({
          field: "evidence",
          code: "evidence_required",
          message: expect.stringMatching(/at least one photo/),
        }),
      ]);
      const chipped = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_delivered",
        patch: { reason: "the mugs arrived chipped", item_ids: ["ord_delivered_item_2"] },
      });
      expect(chipped).toMatchObject({ outcome: "input_required", missing: ["evidence"] });
      // A word holding a claim's letters is no claim: whole words only.
      const stainless = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_delivered",
        dry_run: true,
        patch: {
          reason: "the stainless kettle is too loud for breakfast",
          item_ids: ["ord_delivered_item_1"],
        },
      });
      expect(stainless.missing ?? []).not.toContain("evidence");
    });

    it("exchange of a delivered tee for another size", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_exchange",
        patch: { kind: "exchange", item_id: "ord_exchange_item_1", reason: "too big" },
      });
      const replacements = (s.options as { replacements: Array<{ product_id: string }> }).replacements.map(
        (r) => r.product_id,
      );
      expect(replacements).toEqual(expect.arrayContaining(["prod_tee_s", "prod_tee_l"]));
      const { v } = await run("ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too big",
        replacement_product_id: "prod_tee_s",
      });
      expect(v).toMatchObject({ outcome: "applied", verification: { kind: "exchange" } });
    });

    type Choice = { id: string; name: string; quantity: number; amount: number };
    const startReturn = (orderId: string, patch: Record<string, unknown> = {}) =>
      w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: orderId,
        patch: { kind: "return_refund", reason: "not needed", ...patch },
      });
    const returnable = (out: Awaited<ReturnType<typeof startReturn>>) =>
      ((out.options as { returnable_items?: Choice[] } | undefined)?.returnable_items ?? []).map((i) => i.id);

    it("several items open: the return asks which, offering each with its amount, and says item_ids", async () => {
      const s = await startReturn("ord_delivered");
      expect(s).toMatchObject({ outcome: "input_required", node: "DETAILS", missing: ["item_ids"] });
      expect((s.options as { returnable_items: Choice[] }).returnable_items).toEqual([
        { id: "ord_delivered_item_1", name: "Electric Kettle", quantity: 1, amount: 15000 },
        { id: "ord_delivered_item_2", name: "Signpost Mug", quantity: 2, amount: 3600 },
      ]);
      // A model that reads only the text block learns the field and the choices from it.
      const text = renderOutcomeText(s as Parameters<typeof renderOutcomeText>[0]);
      expect(text).toMatch(/missing: item_ids/);
      // The list is the field's own (its description names it): its choices stand on its line.
      expect(text).toMatch(/item_ids: .*ord_delivered_item_1 = Electric Kettle ×1/);
      expect(text).toMatch(/ord_delivered_item_2/);
      expect(s.summary ?? null).toBeNull();
    });

    it("after the tee was exchanged, a return offers only the mug and refunds the mug's amount", async () => {
      await run("ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too small",
        replacement_product_id: "prod_tee_l",
      });
      const s = await startReturn("ord_exchange");
      // The one line left is the default; the summary says which item, what amount, and shipping.
      expect(s).toMatchObject({ outcome: "applied", node: "CONFIRM_REQUEST" });
      expect(s.summary).toMatchObject({
        amount: 1800,
        items: [{ id: "ord_exchange_item_2", name: "Signpost Mug", quantity: 1, amount: 1800 }],
        decision: { verb: "Refund", object: "Signpost Mug ×1", amount: 1800 },
        shipping: expect.stringMatching(
          /^not refunded \(\$5\.00\): a return refunds the returned items only/,
        ),
        refund_sum: { terms: [{ label: "items", amount: 1800 }], total: 1800 },
      });
      // Naming the exchanged tee is refused with the reason and what is still open.
      const tee = await startReturn("ord_exchange", { item_ids: ["ord_exchange_item_1"] });
      expect(tee).toMatchObject({ outcome: "input_required", node: "DETAILS" });
      expect(tee.validation_errors).toEqual([
        expect.objectContaining({
          field: "item_ids",
          code: "item_already_returned",
          message: expect.stringMatching(
            /Logo Tee \(M\).*already exchanged.*still returnable: ord_exchange_item_2/,
          ),
        }),
      ]);
      // A second exchange has nothing left to exchange; the return stays possible.
      const again = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_exchange",
        patch: { kind: "exchange", reason: "too big" },
      });
      expect(again.validation_errors).toEqual([
        expect.objectContaining({ field: "kind", code: "nothing_left_to_exchange" }),
      ]);
      const { v } = await run("ord_exchange", { kind: "return_refund", reason: "not needed" });
      expect(v).toMatchObject({ outcome: "applied", verification: { kind: "return", amount: 1800 } });
    });

    it("a returned item is not offered again; with nothing left the return is refused with the reason", async () => {
      await run("ord_delivered", { reason: "too loud", item_ids: ["ord_delivered_item_1"] });
      const kettle = await startReturn("ord_delivered", { item_ids: ["ord_delivered_item_1"] });
      expect(kettle).toMatchObject({ outcome: "input_required" });
      expect(kettle.validation_errors).toEqual([
        expect.objectContaining({
          code: "item_already_returned",
          message: expect.stringMatching(/Electric Kettle.*already returned/),
        }),
      ]);
      expect(returnable(kettle)).toEqual(["ord_delivered_item_2"]);
      // The mugs are all that is left: the default, at their amount.
      const { s } = await run("ord_delivered", { reason: "too many mugs" });
      expect(s.summary).toMatchObject({ amount: 3600, items: [{ id: "ord_delivered_item_2", quantity: 2 }] });
      const none = await startReturn("ord_delivered");
      expect(none).toMatchObject({ outcome: "rejected", node: "PATH" });
      expect(none.validation_errors).toEqual([
        expect.objectContaining({
          field: "kind",
          code: "nothing_left_to_return",
          message: expect.stringMatching(
            /Nothing is left to return: Electric Kettle.*returned.*Signpost Mug.*returned/,
          ),
        }),
      ]);
      expect(none.next_actions.map((n) => n.tool)).not.toContain("confirm_action");
    });

    it("an item settled while the person reviews sends the action back to the item choice when they approve", async () => {
      const s = await startReturn("ord_exchange", {
        item_ids: ["ord_exchange_item_1", "ord_exchange_item_2"],
      });
      expect(s.summary).toMatchObject({ amount: 4300 });
      // Meanwhile the tee is exchanged by another request.
      await run("ord_exchange", {
        kind: "exchange",
        item_id: "ord_exchange_item_1",
        reason: "too small",
        replacement_product_id: "prod_tee_l",
      });
      // The approval's run re-checks at the system of record: nothing sent, the person told why.
      const d = await w.gw.decideApproval(w.person.alice, {
        action_id: s.action_id as string,
        version: s.version as number,
        decision: "approve",
      });
      expect(d.result).toMatchObject({ outcome: "conflict", reason: "changed_since_approval" });
      const c = await w.gw.getContext(w.agent.alice, { action_id: s.action_id });
      expect(c).toMatchObject({ node: "DETAILS" });
      expect(c.validation_errors).toEqual([expect.objectContaining({ code: "item_already_returned" })]);
      expect(c.next_actions.map((n) => n.tool)).toEqual(["advance_action"]);
      // Nothing was sent: the shop recorded only the exchange.
      const res = await fetch(`${w.legacy.url}/v1/refunds?order_id=ord_exchange`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      });
      const refunds = ((await res.json()) as { data: Array<{ kind: string }> }).data;
      expect(refunds.map((r) => r.kind)).toEqual(["exchange"]);
    });

    it("shipping-difference refund", async () => {
      const { s, v } = await run("ord_shipdiff", {
        kind: "shipping_refund",
        reason: "charged express, got standard",
      });
      expect(s.summary).toMatchObject({ amount: 700 });
      expect(v).toMatchObject({ outcome: "applied", verification: { amount: 700 } });
    });

    it("address change refused after shipment, applied before it without approval", async () => {
      const shipped = await w.gw.startAction(w.agent.alice, {
        capability: "change_delivery_address",
        entity_id: "ord_transit",
        patch: { address_id: "Office" },
      });
      expect(shipped.validation_errors).toEqual([expect.objectContaining({ code: "order_already_shipped" })]);
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "change_delivery_address",
        entity_id: "ord_paid",
        patch: { address_id: "Home" },
      });
      expect(s).toMatchObject({ outcome: "applied", status: "open", approval: null });
      expect(s.next_actions.find((n) => n.tool === "confirm_action")?.requires_user_approval).toBe(false);
      const c = await w.gw.confirmAction(w.agent.alice, { action_id: s.action_id, idempotency_key: idem() });
      expect(c.outcome).toBe("applied");
      const view = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
      expect((view.view as { address: { id: string } }).address.id).toBe("addr_alice_home");
    });

    it("track_shipment answers at once for a shipped order and explains an unshipped one", async () => {
      const t = await w.gw.startAction(w.agent.alice, {
        capability: "track_shipment",
        entity_id: "ord_transit",
      });
      expect(t).toMatchObject({ outcome: "applied", status: "completed", next_actions: [] });
      expect((t.result as { events: unknown[]; tracking_number: string }).events.length).toBeGreaterThan(0);
      const n = await w.gw.startAction(w.agent.alice, {
        capability: "track_shipment",
        entity_id: "ord_paid",
      });
      expect(n).toMatchObject({ outcome: "rejected", reason: "not_shipped" });
    });

    it("the order view gives one business judgement: eligibility with reasons and next_actions", async () => {
      const transit = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_transit" });
      expect(transit).toMatchObject({
        outcome: "applied",
        entity: "Order",
        view: {
          status: "shipped",
          after_sales: { refund_only: { eligible: false, reason: "order_already_shipped" } },
          not_now: { change_delivery_address: "order_already_shipped", pay_order: "order_already_paid" },
        },
      });
      expect(transit.next_actions.map((n) => n.args?.capability)).toEqual(["track_shipment"]);
      const paid = await w.gw.getContext(w.agent.alice, { entity: "order", entity_id: "ord_paid" });
      expect(paid.next_actions.map((n) => n.args?.capability)).toEqual([
        "after_sales",
        "change_delivery_address",
      ]);
      const ticket = await w.gw.getContext(w.agent.sam, { entity: "ticket", entity_id: "tkt_5" });
      expect(ticket.next_actions.map((n) => n.args?.capability)).toEqual([
        "change_ticket_priority",
        "reopen_ticket",
        // Only a resolved ticket is closed (an open one is resolved first, with its resolution).
        "close_ticket",
        // Any ticket takes a comment, a resolved one too.
        "comment_ticket",
      ]);
      // Members do not read the helpdesk.
      expect((await w.gw.getContext(w.agent.alice, { entity: "ticket", entity_id: "tkt_1" })).outcome).toBe(
        "not_found",
      );
    });
  },
);
