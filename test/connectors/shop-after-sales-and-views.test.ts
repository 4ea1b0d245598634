import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
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

    const paths: Array<[string, string, string | null]> = [
      ["ord_pending", "pending_payment", null],
      ["ord_paid", "paid", "refund_only"],
      ["ord_transit", "shipped", null],
      ["ord_delivered", "delivered", "return_refund"],
      ["ord_delivered_old", "delivered 45 days ago", null],
      ["ord_cancelled", "cancelled", null],
    ];
    it.each(paths)("%s (%s): the path chosen is %s", async (orderId, _state, expected) => {
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
      if (expected) expect(s).toMatchObject({ node: "DETAILS", missing: ["reason"] });
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
      // Nothing the agent could send helps now: the way forward is what is possible instead.
      expect(s.next_actions).toEqual([
        expect.objectContaining({
          tool: "start_action",
          args: { capability: "track_shipment", entity_id: "ord_transit" },
        }),
      ]);
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
        patch: { reason: "the kettle arrived damaged" },
      });
      expect(s).toMatchObject({ outcome: "input_required", missing: ["evidence"] });
      const { v } = await run("ord_delivered", {
        reason: "the kettle arrived damaged",
        evidence: ["photo: dented lid"],
      });
      expect(v).toMatchObject({ outcome: "applied", verification: { kind: "return" } });
      // What the person approved is what the shop refunded.
      const approved = (
        await w.db.approval.findFirstOrThrow({
          where: { actionId: v.action_id as string, status: "approved" },
        })
      ).summary as { amount: number };
      expect((v.verification as { amount: number }).amount).toBe(approved.amount);
    });

    it("exchange of a delivered tee for another size", async () => {
      const s = await w.gw.startAction(w.agent.alice, {
        capability: "after_sales",
        entity_id: "ord_exchange",
        patch: { kind: "exchange", reason: "too big" },
      });
      const replacements = (s.options as { replacements: Array<{ product_id: string }> }).replacements.map(
        (r) => r.product_id,
      );
      expect(replacements).toEqual(expect.arrayContaining(["prod_tee_s", "prod_tee_l"]));
      const { v } = await run("ord_exchange", {
        kind: "exchange",
        reason: "too big",
        replacement_product_id: "prod_tee_s",
      });
      expect(v).toMatchObject({ outcome: "applied", verification: { kind: "exchange" } });
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
          change_delivery_address: { eligible: false, reason: "order_already_shipped" },
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
      ]);
      // Members do not read the helpdesk.
      expect((await w.gw.getContext(w.agent.alice, { entity: "ticket", entity_id: "tkt_1" })).outcome).toBe(
        "not_found",
      );
    });
  },
);
