import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Actor, defineCapability, type NodeDefinition } from "@/server/connectors/sdk/define-capability";
import { eventStem, recordEvents, statusLifecycle } from "@/server/connectors/sdk/record-events";
import { evaluateAction } from "@/server/engine/evaluate-action";

/**
 * Rows state the events their records went through (issue 23): "Refund my order that hasn't
 * shipped yet" left three delivered orders to ask about, because a delivered row says
 * "delivered", not "shipped". A node's declared lifecycle and a row's `<event>_at` stamps (an
 * imported record's `sent_at: null`) now say it, for any connector; a negation alone still never
 * names the record of a change nobody approves.
 */
const actor: Actor = { tenantId: "t", userId: "u", email: "u@example.test", role: "member" };

describe("what a row says its record went through", () => {
  it("a lifecycle: a state passed every earlier one, none after; an off-line state never passed those after where it left", () => {
    const life = statusLifecycle("status", ["pending", "paid", "shipped", "delivered"], {
      cancelled: "paid",
    });
    const of = (status: string) => Object.fromEntries(recordEvents({ status }, life));
    expect(of("delivered")).toEqual({ pay: true, ship: true, deliver: true });
    expect(of("shipped, in transit")).toEqual({ pay: true, ship: true, deliver: false });
    expect(of("pending")).toEqual({ pay: false, ship: false, deliver: false });
    // Whether a cancelled order was paid is not said; that it never shipped is.
    expect(of("cancelled")).toEqual({ ship: false, deliver: false, cancel: true });
    expect(() => statusLifecycle("status", ["a", "b"], { c: "z" })).toThrow(/not on the line/);
  });

  it("timestamps: a value is an event that happened, null one that did not (yet); other keys say nothing", () => {
    const events = recordEvents({ shipped_at: "2026-01-02T00:00:00Z", deliveredAt: null, ship_to: "Home" });
    expect(Object.fromEntries(events)).toEqual({ ship: true, deliver: false });
    expect(recordEvents({ last_login_at: "x", name: "n" }).size).toBe(0);
  });

  it("event words compare by one rough stem", () => {
    for (const [a, b] of [
      ["shipped", "shipment"],
      ["delivered", "delivery"],
      ["paid", "payment"],
      ["cancelled", "cancellation"],
      ["canceled", "cancel"],
    ])
      expect(eventStem(a as string)).toBe(eventStem(b as string));
    expect(eventStem("shipped")).not.toBe(eventStem("delivered"));
  });
});

/** An invoicing system as an import gives it: the events as timestamps, null until they happen. */
const INVOICES = [
  { id: "inv_1", customer: "Acme Corp", sent_at: "2026-11-02T10:00:00Z", paid_at: null },
  { id: "inv_2", customer: "Acme Corp", sent_at: null, paid_at: null },
  { id: "inv_3", customer: "Globex", sent_at: "2026-11-01T10:00:00Z", paid_at: "2026-11-09T10:00:00Z" },
  { id: "inv_4", customer: "Globex", sent_at: null, paid_at: null },
];

const invoiceNode: NodeDefinition<unknown> = {
  id: "INVOICE",
  description: "The invoice",
  fields: { invoice_id: z.string().describe("The invoice") },
  async resolve({ values }) {
    return values.invoice_id ? {} : { options: { invoices: INVOICES } };
  },
};

const capability = (id: string, approval: "never" | "always") =>
  defineCapability<unknown>({
    id,
    connector: "billing",
    title: id === "void_invoice" ? "Void an invoice" : "Add a note to an invoice",
    description: "",
    trigger: { use: id, avoid: "" },
    synonyms: [id === "void_invoice" ? "void" : "note"],
    appliesTo: { entity: "Invoice", field: "invoice_id" },
    prerequisites: [],
    sideEffects: [],
    policy: {
      effect: "write",
      permission: `billing.${id}`,
      roles: ["member"],
      approval,
      retry: { attempts: 1, backoffMs: 0 },
      timeoutMs: 1000,
      audit: "full",
    },
    nodes: [invoiceNode, { id: "CONFIRM", description: "Do it", requiresConfirmation: true }],
    effect: {
      kind: `billing.${id}`,
      description: "Do it",
      execute: async () => ({ status: "applied", response: {} }),
      verify: async () => ({ happened: false, details: {} }),
    },
  });

const voidInvoice = capability("void_invoice", "always");
const noteInvoice = capability("note_invoice", "never");

describe("records matched by the events their timestamps state (an imported system's rows)", () => {
  it("'not sent' keeps only rows whose sent_at is empty; with a person approving, the one Acme invoice is taken with why", async () => {
    const ev = await evaluateAction(
      voidInvoice,
      {},
      actor,
      {},
      { request: "void the Acme invoice that wasn't sent" },
    );
    expect(ev.fromWords.invoice_id).toBe("inv_2");
    expect(ev.whyPicked.invoice_id).toMatch(/not "sent" \(sent_at none\)/);
  });

  it("'the paid one' is the row whose paid_at is set, though no row says the word 'paid'", async () => {
    const ev = await evaluateAction(voidInvoice, {}, actor, {}, { request: "void the paid invoice" });
    expect(ev.fromWords.invoice_id).toBe("inv_3");
  });

  it("a change nobody approves: the rows that were not sent fit exactly and are asked about, none named", async () => {
    const ev = await evaluateAction(
      noteInvoice,
      {},
      actor,
      {},
      { request: "note on the Acme invoice that wasn't sent" },
    );
    expect(ev.fromWords.invoice_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(
      /\(acme, not sent\) fits 1 invoice that can take this: inv_2;.*ask the user/,
    );
    const all = await evaluateAction(
      noteInvoice,
      {},
      actor,
      {},
      { request: "note on the invoice not sent yet" },
    );
    // Every row states whether it was sent: they fit, with no hedge to check each.
    expect(all.errors[0]?.message).toMatch(/\(not sent\) fit 2 invoices that can take this: inv_2, inv_4;/);
  });
});
