import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Actor, defineCapability } from "@/server/connectors/sdk/define-capability";
import { evaluateAction } from "@/server/engine/evaluate-action";

/**
 * Issue 23: "the records the words describe cannot take this" was written twice — once for words
 * by age ("the oldest paid invoice is inv_4, and cannot take this: …") and once for words that
 * describe records ("inv_4 fits but …") — each cutting the row's verdict its own way. One builder
 * now says it, with the row's verdict read one way (`cannot()`): a record's reason is the same
 * words whichever way the user described it.
 */
const actor: Actor = { tenantId: "t", userId: "u", email: "u@example.test", role: "member" };

const PAID = "The invoice is paid; reminders go to open invoices only, at most one a week per customer";
const day = (n: number) => `2026-0${n}-01T10:00:00.000Z`;
const INVOICES = [
  { id: "inv_1", customer: "Acme Corp", status: "overdue", created_at: day(5), possible: "yes" },
  { id: "inv_2", customer: "Acme Corp", status: "paid", created_at: day(1), possible: PAID },
  { id: "inv_3", customer: "Acme Corp", status: "paid", created_at: day(2), possible: PAID },
  { id: "inv_4", customer: "Acme Corp", status: "paid", created_at: day(3), possible: PAID },
  { id: "inv_5", customer: "Acme Corp", status: "settled", created_at: day(4), possible: "friendly" },
  { id: "inv_6", customer: "Globex", status: "draft", created_at: day(6), possible: "yes" },
  { id: "inv_7", customer: "Acme Corp", status: "paid", created_at: day(7), possible: PAID },
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

const run = async (request: string) => {
  const ev = await evaluateAction(remind, {}, actor, {}, { request });
  expect(ev.values.invoice_id, request).toBeUndefined();
  return ev.errors[0];
};

/**
 * Age words name the record they describe whether or not it can take the change (issue 23: a
 * younger one that could was changed instead): it is taken, and its node's checks answer. This
 * node does not re-check the invoice it is given, so the row's own verdict holds it back.
 */
const byAge = async (request: string) => {
  const ev = await evaluateAction(remind, {}, actor, {}, { request });
  return { taken: ev.values.invoice_id, error: ev.errors[0] };
};

describe("the records the words describe cannot take this: one answer, one reading of each verdict", () => {
  it("by age: the oldest is named and taken, and its verdict's first clause says why nothing runs; no other is offered in its place", async () => {
    const { taken, error } = await byAge("remind the oldest paid invoice of acme");
    expect(taken).toBe("inv_2");
    expect(error).toMatchObject({ field: "invoice_id", code: "not_possible" });
    expect(error?.message).toBe(
      "the oldest paid invoice is inv_2, and cannot take this: the invoice is paid; tell the user",
    );
  });

  it("by description: the same clause for the same rows, the rest counted, never cut inside a word", async () => {
    const error = await run("remind acme of the paid invoice");
    expect(error).toMatchObject({ field: "invoice_id", code: "no_match" });
    expect(error?.message).toBe(
      "no invoice that can take this fits the user's words (acme, paid): inv_2 fits but the invoice is paid; inv_3 fits but the invoice is paid; inv_4 fits but the invoice is paid; 1 more; tell the user, or send invoice_id",
    );
  });

  it("a verdict that lists what a row can take: taken when the words ask for one of those, refused as a clause when they ask for another", async () => {
    expect(await byAge("remind the newest settled invoice")).toEqual({ taken: "inv_5", error: undefined });
    const firm = await byAge("remind the newest settled invoice, firm tone");
    expect(firm.taken).toBe("inv_5");
    expect(firm.error?.message).toMatch(
      /^the newest settled invoice is inv_5, and cannot take this: only friendly is possible;/,
    );
  });
});
