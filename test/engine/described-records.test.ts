import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Actor, type AnyCapability, defineCapability } from "@/server/connectors/sdk/define-capability";
import { statusLifecycle } from "@/server/connectors/sdk/record-events";
import { evaluateAction } from "@/server/engine/evaluate-action";

/**
 * Words that describe a record, for any connector's rows (here an invoicing system as an import
 * would give it: no item names, a customer and a status; a change nobody approves). Several rows
 * the words fit are listed to ask, never picked; one is taken with why; only closed ones say why.
 */
const actor: Actor = { tenantId: "t", userId: "u", email: "u@example.test", role: "member" };

const INVOICES = [
  { id: "inv_1", customer: "Acme Corp", status: "overdue", currency: "EUR", possible: "yes" },
  { id: "inv_2", customer: "Acme Corp", status: "draft", currency: "EUR", possible: "yes" },
  { id: "inv_3", customer: "Globex", status: "overdue", currency: "USD", possible: "yes" },
  { id: "inv_4", customer: "Acme Corp", status: "paid", currency: "USD", possible: "The invoice is paid." },
  { id: "inv_5", customer: "Initech", status: "draft", currency: "EUR" },
];

const remind = defineCapability<unknown>({
  id: "send_reminder",
  connector: "billing",
  title: "Send a payment reminder",
  description: "Reminds the customer of an invoice",
  trigger: { use: "remind", avoid: "" },
  synonyms: ["remind", "nudge"],
  appliesTo: { entity: "Invoice", field: "invoice_id" },
  prerequisites: [],
  sideEffects: ["emails the customer"],
  policy: {
    effect: "write",
    permission: "billing.remind",
    roles: ["member"],
    approval: "never",
    retry: { attempts: 1, backoffMs: 0 },
    timeoutMs: 1000,
    audit: "full",
  },
  nodes: [
    {
      id: "INVOICE",
      description: "The invoice",
      fields: { invoice_id: z.string().describe("The invoice") },
      async resolve({ values }) {
        return values.invoice_id ? {} : { options: { invoices: INVOICES } };
      },
    },
    {
      id: "TONE",
      description: "How firm",
      fields: { tone: z.enum(["friendly", "firm"]).describe("friendly | firm") },
    },
    { id: "CONFIRM", description: "Send", requiresConfirmation: true },
  ],
  effect: {
    kind: "billing.remind",
    description: "Send",
    execute: async () => ({ status: "applied", response: {} }),
    verify: async () => ({ happened: false, details: {} }),
  },
});

const run = (request: string) => evaluateAction(remind, {}, actor, {}, { request });
const ids = (rows: unknown) => ((rows ?? []) as Array<{ id: string }>).map((r) => r.id);

describe("records described by the user's words (any connector)", () => {
  it("several open rows fit every word, wherever it stands: listed alone, asked, none picked", async () => {
    const ev = await run("send a firm reminder for the invoice of acme in EUR");
    expect(ev.values.invoice_id).toBeUndefined();
    expect(ev.errors[0]).toMatchObject({ field: "invoice_id", code: "ambiguous_choice" });
    expect(ev.errors[0]?.message).toMatch(/\(acme, eur\) fit 2 invoices that can take this: inv_1, inv_2/);
    expect(ev.errors[0]?.message).toMatch(/ask the user which one/);
    expect(ids(ev.options.invoices)).toEqual(["inv_1", "inv_2"]);
    // "firm" fills the tone field: it never describes the invoice.
    expect(ev.errors[0]?.message).not.toContain("firm");
  });

  it("one open row fits: taken, with why; a closed one the words fit too is named", async () => {
    const ev = await run("remind acme about their overdue invoice, friendly");
    expect(ev.fromWords.invoice_id).toBe("inv_1");
    expect(ev.whyPicked.invoice_id).toMatch(/status overdue/);
  });

  it("only rows that cannot take it fit: no_match, with their reason; nothing picked", async () => {
    const ev = await run("remind acme of the paid invoice");
    expect(ev.values.invoice_id).toBeUndefined();
    expect(ev.errors[0]).toMatchObject({ field: "invoice_id", code: "no_match" });
    expect(ev.errors[0]?.message).toMatch(/inv_4 fits but the invoice is paid/);
  });

  it("a word no row says beside the description is said, not dropped: no pick on the rest", async () => {
    const ev = await run("remind the umbrella overdue invoice");
    expect(ev.values.invoice_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(/"umbrella" fits no invoice/);
    expect(ids(ev.options.invoices)).toEqual(["inv_1", "inv_3"]);
  });

  it("a word a request is put in ('anything', 'could') is no name beside the description (function-words.ts)", async () => {
    const ev = await run("remind acme of anything overdue, could you");
    expect(ev.fromWords.invoice_id).toBe("inv_1");
    expect(ev.errors).toEqual([]);
  });

  it("a word said as what the record is not keeps the rows that do not say it ('not overdue' is no overdue invoice); a negation alone names none", async () => {
    const ev = await run("remind acme of the invoice that is not overdue");
    // The negation leaves one that can take it, but nobody approves a reminder: asked, not named.
    expect(ev.fromWords.invoice_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(/\(acme, not overdue\) fits 1 invoice that can take this: inv_2/);
    expect(ev.errors[0]?.message).toMatch(/inv_4 fits too but the invoice is paid/);
    const unpaid = await run("remind the invoice that hasn't been paid");
    expect(unpaid.errors[0]?.message).toMatch(/\(not paid\) leave 4 invoices that can take this/);
    expect(ids(unpaid.options.invoices)).toEqual(["inv_1", "inv_2", "inv_3", "inv_5"]);
  });

  it("words no row says at all leave the offer whole, as before", async () => {
    const ev = await run("send a reminder for an invoice");
    expect(ev.errors).toEqual([]);
    expect(ev.missing).toEqual(["invoice_id"]);
    expect(ids(ev.options.invoices)).toHaveLength(5);
  });

  it("what the clause says happened to the record after its name is no name of it: 'the acme invoice in EUR bounced twice' takes the one it describes", async () => {
    // Set P: "… my delivered kettle order stopped working" asked which order for "stopped".
    const ev = await run("the overdue acme invoice in EUR bounced twice, send a friendly reminder");
    expect(ev.fromWords.invoice_id).toBe("inv_1");
    const relative = await run("the overdue acme invoice that never reached them, send a friendly reminder");
    expect(relative.fromWords.invoice_id).toBe("inv_1");
    // A word in the name itself still asks.
    const named = await run("the overdue acme umbrella invoice bounced, send a friendly reminder");
    expect(named.fromWords.invoice_id).toBeUndefined();
    expect(named.errors[0]?.message).toMatch(/"umbrella" fits no invoice/);
  });

  it("a state's words its lifecycle declares describe the record in that state, phrase whole: 'that is still waiting for payment'", async () => {
    // Set P: "my order that's waiting for payment" listed all eight orders.
    const [first, ...rest] = remind.nodes;
    const withWords = {
      ...remind,
      nodes: [
        {
          ...first,
          lifecycle: statusLifecycle(
            "status",
            ["draft", "overdue", "paid"],
            {},
            {
              overdue: ["waiting for payment", "past due"],
            },
          ),
        },
        ...rest,
      ],
    } as AnyCapability;
    const request = "remind acme of the invoice that is still waiting for payment, friendly";
    const ev = await evaluateAction(withWords, {}, actor, {}, { request });
    expect(ev.fromWords.invoice_id).toBe("inv_1");
    // Undeclared, the same words name none (and "payment" alone is no state).
    expect((await run(request)).fromWords.invoice_id).toBeUndefined();
    expect(() => statusLifecycle("status", ["a", "b"], {}, { c: ["x"] })).toThrow(/words for c/);
  });
});
