import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Actor, defineCapability, type MoneyKeys } from "@/server/connectors/sdk/define-capability";
import { describeInputs } from "@/server/engine/describe-inputs";
import { evaluateAction } from "@/server/engine/evaluate-action";

/**
 * A default never stands in for a choice that changes the money an action moves, whatever the
 * capability or connector: the rule reads the capability's declared money keys off the rows it
 * offers (or its `paidChoices` declaration), never a field's name. Round 4: checkout filled the
 * cheapest shipping method and went to approval with a price nobody chose.
 */
const actor: Actor = { tenantId: "t", userId: "u", email: "u@example.test", role: "member" };

function planCapability(
  rows: Array<Record<string, unknown>>,
  opts: { money?: MoneyKeys; paidChoices?: string[] } = {},
) {
  return defineCapability<unknown>({
    id: "subscribe",
    connector: "test",
    title: "Subscribe",
    description: "Start a subscription",
    trigger: { use: "subscribe", avoid: "" },
    synonyms: [],
    appliesTo: { entity: "Subscription" },
    prerequisites: [],
    sideEffects: ["charges the card"],
    ...(opts.money ? { money: opts.money } : {}),
    policy: {
      effect: "write",
      permission: "test.subscribe",
      roles: ["member"],
      approval: "always",
      retry: { attempts: 1, backoffMs: 0 },
      timeoutMs: 1000,
      audit: "full",
    },
    nodes: [
      {
        id: "PLAN",
        description: "The plan",
        fields: { tier: z.string().optional().describe("One of options.tiers") },
        ...(opts.paidChoices ? { paidChoices: opts.paidChoices } : {}),
        async resolve({ values }) {
          return { options: { tiers: rows }, ...(values.tier ? {} : { defaults: { tier: rows[0]?.tier } }) };
        },
      },
      { id: "CONFIRM", description: "Subscribe", requiresConfirmation: true },
    ],
    effect: {
      kind: "test.subscribe",
      description: "Subscribe",
      execute: async () => ({ status: "applied", response: {} }),
      verify: async () => ({ happened: false, details: {} }),
    },
  });
}

const MONEY: MoneyKeys = { keys: ["fee"], currency: "EUR" };

describe("paid choices are the user's, for any capability", () => {
  it("rows that differ under a declared money key: no default, the field is missing", async () => {
    const cap = planCapability(
      [
        { tier: "basic", fee: 500 },
        { tier: "pro", fee: 1500 },
      ],
      { money: MONEY },
    );
    const ev = await evaluateAction(cap, {}, actor, {});
    expect(ev).toMatchObject({ node: "PLAN", atConfirmation: false, missing: ["tier"], defaulted: {} });
    expect(ev.values.tier).toBeUndefined();
  });

  it("a free choice still defaults (same price, one choice, or no money declared)", async () => {
    const same = planCapability(
      [
        { tier: "blue", fee: 500 },
        { tier: "green", fee: 500 },
      ],
      { money: MONEY },
    );
    const one = planCapability([{ tier: "basic", fee: 500 }], { money: MONEY, paidChoices: ["tier"] });
    const undeclared = planCapability([
      { tier: "basic", fee: 500 },
      { tier: "pro", fee: 1500 },
    ]);
    for (const cap of [same, one, undeclared]) {
      const ev = await evaluateAction(cap, {}, actor, {});
      expect(ev).toMatchObject({ atConfirmation: true, defaulted: { tier: expect.any(String) } });
    }
  });

  it("declared paid: missing even when its rows carry no price, and required in the inputs", async () => {
    const cap = planCapability([{ tier: "basic" }, { tier: "pro" }], { paidChoices: ["tier"] });
    const ev = await evaluateAction(cap, {}, actor, {});
    expect(ev).toMatchObject({ node: "PLAN", missing: ["tier"] });
    expect(describeInputs(cap)).toContainEqual(expect.objectContaining({ field: "tier", required: true }));
    // Named by the agent: taken, nothing asked.
    expect(await evaluateAction(cap, {}, actor, { tier: "pro" })).toMatchObject({ atConfirmation: true });
  });

  it("a paid choice that is not one of its node's fields is refused at load", () => {
    expect(() => planCapability([], { paidChoices: ["plan"] })).toThrow(/declares paid choice plan/);
  });
});
