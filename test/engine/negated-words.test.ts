import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Actor, type AnyCapability, defineCapability } from "@/server/connectors/sdk/define-capability";
import { evaluateAction } from "@/server/engine/evaluate-action";

/**
 * Words that say what the record is not ("hasn't shipped yet", "not paid", "never delivered",
 * "unshipped"), for any connector's rows (here a small shop of purchases defined in the test).
 * A negation narrows to the rows that do not say the word, beside the positive words; a negated
 * word no row says (or every row says) changes nothing. Rows do not say the states a record has
 * passed (a delivered purchase was shipped, yet its row says only "delivered"), so a negation
 * alone never names a record a change nobody approves would run on: it is offered to ask.
 * Played (issue 23): "Refund my order that hasn't shipped yet" listed all eight orders.
 */
const actor: Actor = { tenantId: "t", userId: "u", email: "u@example.test", role: "member" };

const PURCHASES = [
  { id: "pur_new", status: "pending_payment", items: "Mug ×1", currency: "USD", possible: "Not paid yet." },
  { id: "pur_paid", status: "paid", items: "Mug ×1, Lamp ×1", currency: "USD", possible: "yes" },
  {
    id: "pur_ship",
    status: "shipped",
    items: "Kettle ×1, Mug ×1",
    currency: "USD",
    possible: "In transit; possible once delivered.",
  },
  { id: "pur_deliv", status: "delivered", items: "Mug ×2", currency: "USD", possible: "yes" },
  { id: "pur_deliv2", status: "delivered", items: "Tee ×1", currency: "USD", possible: "yes" },
  { id: "pur_cancel", status: "cancelled", items: "Tee ×2", currency: "USD", possible: "Cancelled." },
];

/** A money-back change on a purchase: a person approves it (`always`), or nobody does (`never`). */
function refund(approval: "always" | "never") {
  return defineCapability<unknown>({
    id: approval === "always" ? "refund_purchase" : "credit_purchase",
    connector: "store",
    title: approval === "always" ? "Refund a purchase" : "Credit a purchase",
    description: "Gives the money of a purchase back",
    trigger: { use: "refund", avoid: "" },
    synonyms: ["refund", "credit", "money back"],
    appliesTo: { entity: "Purchase", field: "purchase_id" },
    prerequisites: [],
    sideEffects: ["gives money back"],
    policy: {
      effect: "write",
      permission: "store.refund",
      roles: ["member"],
      approval,
      retry: { attempts: 1, backoffMs: 0 },
      timeoutMs: 1000,
      audit: "full",
    },
    nodes: [
      {
        id: "PURCHASE",
        description: "The purchase",
        fields: { purchase_id: z.string().describe("The purchase") },
        async resolve({ values }) {
          return values.purchase_id ? {} : { options: { purchases: PURCHASES } };
        },
      },
      {
        id: "REASON",
        description: "Why",
        fields: { reason: z.string().min(3).describe("Why, in the user's words") },
      },
      { id: "CONFIRM", description: "Refund", requiresConfirmation: true },
    ],
    effect: {
      kind: "store.refund",
      description: "Refund",
      execute: async () => ({ status: "applied", response: {} }),
      verify: async () => ({ happened: false, details: {} }),
    },
  });
}

const approved = refund("always");
const unapproved = refund("never");

const run = (capability: AnyCapability, request: string) =>
  evaluateAction(capability, {}, actor, {}, { request });
const ids = (rows: unknown) => ((rows ?? []) as Array<{ id: string }>).map((r) => r.id);

describe("what the user's words say a record is not (any connector)", () => {
  it("'hasn't shipped yet': the rows that do not say shipped, asked; never all six, never a pick", async () => {
    for (const capability of [approved, unapproved]) {
      const ev = await run(capability, "Refund my purchase that hasn't shipped yet, I changed my mind");
      expect(ev.values.purchase_id).toBeUndefined();
      expect(ev.errors[0]).toMatchObject({ field: "purchase_id", code: "ambiguous_choice" });
      // A delivered purchase was shipped, but its row does not say so: it stays a candidate.
      expect(ev.errors[0]?.message).toMatch(
        /\(not shipped\) leave 3 purchases that can take this \(check each one's state\): pur_paid, pur_deliv, pur_deliv2/,
      );
      expect(ev.errors[0]?.message).not.toContain("pur_ship");
      expect(ids(ev.options.purchases)).toEqual(["pur_paid", "pur_deliv", "pur_deliv2"]);
    }
  });

  it("'never delivered' / 'that isn't delivered' fit one that can take it: started on it with why when a person approves; asked when nobody does", async () => {
    for (const words of [
      "refund my purchase that was never delivered",
      "refund the purchase that isn't delivered",
    ]) {
      const ev = await run(approved, words);
      expect(ev.fromWords.purchase_id).toBe("pur_paid");
      expect(ev.whyPicked.purchase_id).toMatch(/not "delivered" \(status paid\)/);
      // Nobody approves a credit: the negation alone never names the record it would run on.
      const asked = await run(unapproved, words.replace("refund", "credit"));
      expect(asked.values.purchase_id).toBeUndefined();
      expect(asked.fromWords.purchase_id).toBeUndefined();
      expect(asked.errors[0]).toMatchObject({ field: "purchase_id", code: "ambiguous_choice" });
      expect(asked.errors[0]?.message).toMatch(
        /\(not delivered\) leaves 1 purchase that can take this \(check each one's state\): pur_paid/,
      );
      expect(ids(asked.options.purchases)).toEqual(["pur_paid"]);
    }
  });

  it("'unshipped' is 'not shipped' when no row says the word itself", async () => {
    const ev = await run(unapproved, "credit the unshipped purchase");
    expect(ev.errors[0]?.message).toMatch(/\(not shipped\) leave 3 purchases/);
  });

  it("'not paid': rows that do not say paid; those that cannot take it said with why", async () => {
    const ev = await run(unapproved, "credit my purchase that is not paid");
    expect(ev.values.purchase_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(
      /\(not paid\) leave 2 purchases that can take this \(check each one's state\): pur_deliv, pur_deliv2/,
    );
    expect(ev.errors[0]?.message).toMatch(/pur_new fits too but not paid yet/);
    expect(ids(ev.options.purchases)).toEqual(["pur_deliv", "pur_deliv2"]);
  });

  it("a negation beside positive words narrows them: 'the mug purchase that hasn't shipped'", async () => {
    const ev = await run(unapproved, "credit the mug purchase that hasn't shipped");
    expect(ev.errors[0]?.message).toMatch(
      /\(mug, not shipped\) fit 2 purchases that can take this: pur_paid, pur_deliv/,
    );
    expect(ev.errors[0]?.message).not.toContain("pur_ship");
    // With a person approving, positive words and a negation that pick one start on it.
    const one = await run(approved, "refund the mug purchase that was never delivered");
    expect(one.fromWords.purchase_id).toBe("pur_paid");
    expect(one.whyPicked.purchase_id).toMatch(/items "Mug ×1, Lamp ×1"/);
  });

  it("a negated word no row says, or every row says, changes nothing (and is no name the user meant)", async () => {
    const ev = await run(
      approved,
      "refund the purchase that hasn't arrived, not in usd, and was never delivered",
    );
    expect(ev.fromWords.purchase_id).toBe("pur_paid");
    const none = await run(unapproved, "credit the purchase that hasn't arrived");
    expect(none.errors).toEqual([]);
    expect(ids(none.options.purchases)).toHaveLength(6);
    expect(JSON.stringify(none.errors)).not.toContain("arrived");
  });

  it("a record named only in a negation is never the one named: 'the one that isn't the lamp purchase'", async () => {
    const ev = await run(unapproved, "credit my purchase, not the lamp one");
    expect(ev.fromWords.purchase_id).toBeUndefined();
    expect(ev.values.purchase_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(
      /\(not lamp\) leave 2 purchases that can take this \(check each one's state\): pur_deliv, pur_deliv2/,
    );
  });

  it("a name the words contradict is no name: 'the tee purchase that isn't delivered' is not the delivered tee one", async () => {
    const ev = await run(unapproved, "credit the tee purchase that isn't delivered");
    expect(ev.fromWords.purchase_id).toBeUndefined();
    expect(ev.values.purchase_id).toBeUndefined();
    expect(ev.errors[0]).toMatchObject({ field: "purchase_id", code: "no_match" });
    expect(ev.errors[0]?.message).toMatch(/\(tee, not delivered\).*pur_cancel fits but cancelled/i);
  });

  it("words every row they fit denies: said, and those rows asked about, never one picked", async () => {
    const ev = await run(unapproved, "credit the delivered mug purchase that was never delivered");
    expect(ev.fromWords.purchase_id).toBeUndefined();
    expect(ev.errors[0]?.message).toMatch(/"not delivered" fits no purchase/);
    expect(ev.errors[0]?.message).toMatch(/ask the user/);
  });

  it("a denied word before the name never describes it where the age is asked ('the oldest not delivered mug purchase')", async () => {
    const ev = await run(unapproved, "credit the oldest not delivered mug purchase");
    expect(ev.fromWords.purchase_id).not.toBe("pur_deliv");
    expect(ev.values.purchase_id).not.toBe("pur_deliv");
  });

  it("a row's own 'not' is no positive word: 'the task that hasn't started' fits not_started", async () => {
    const TASKS = [
      { id: "t1", title: "Write the report", status: "not_started", possible: "yes" },
      { id: "t2", title: "Book the venue", status: "started", possible: "yes" },
      { id: "t3", title: "Send the invites", status: "started", possible: "yes" },
    ];
    const archive = defineCapability<unknown>({
      ...unapproved,
      id: "archive_task",
      title: "Archive a task",
      synonyms: ["archive"],
      appliesTo: { entity: "Task", field: "task_id" },
      nodes: [
        {
          id: "TASK",
          description: "The task",
          fields: { task_id: z.string().describe("The task") },
          async resolve({ values }: { values: Record<string, unknown> }) {
            return values.task_id ? {} : { options: { tasks: TASKS } };
          },
        },
        { id: "CONFIRM", description: "Archive", requiresConfirmation: true },
      ],
    } as never);
    const ev = await run(archive, "archive the task that hasn't started");
    expect(ev.errors[0]?.message).toMatch(
      /\(not started\) leaves 1 task that can take this \(check each one's state\): t1/,
    );
  });
});
