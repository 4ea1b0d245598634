import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type World } from "./gateway-world";

type Case = [intent: string, capability: string, patch?: Record<string, unknown>];

// Everyday phrasings a person uses for each demo capability, each started from the words alone
// (start_action with intent, no capability id). Several lost a call on the old rules: a relative
// clause ("that is waiting for payment") made an imperative read as a situation, so the request
// was "using my balance" and every match counted as topic-only ("no capability fits"); a topic
// word after "I want to" was no verb ("order two mugs"); the state a relative clause names
// ("that was delivered") competed as an ask; a verb opening a later clause settled no tie.
const SHOP: Case[] = [
  ["Pay my order that is waiting for payment, using my balance", "pay_order", { payment_type: "balance" }],
  ["Pay my order that is waiting for payment. Use my balance.", "pay_order", { payment_type: "balance" }],
  ["Pay my order that is waiting for payment.", "pay_order", { payment_type: "balance" }],
  ["Settle my unpaid order with my card", "pay_order"],
  ["I still owe money on an order, pay it from my balance", "pay_order"],
  ["Complete the payment for my pending order", "pay_order"],
  ["Buy the items in my cart and ship them to the office", "checkout"],
  ["Check out my cart and pay by card", "checkout"],
  ["I want to order two mugs", "checkout"],
  ["Purchase a desk lamp with express shipping", "checkout"],
  ["Refund my order that was delivered broken", "after_sales"],
  ["I want to return the kettle", "after_sales"],
  ["Exchange my tee for size L", "after_sales"],
  ["Cancel the order I placed today", "after_sales"],
  ["Send back the mug, it arrived damaged", "after_sales"],
  ["Send my order to my home address instead", "change_delivery_address"],
  ["Change the delivery address of my order to Home", "change_delivery_address"],
  ["Ship the order that is not shipped yet to my office instead", "change_delivery_address"],
  ["Where is my parcel?", "track_shipment"],
  ["Track the order that was shipped", "track_shipment"],
  ["When will my package arrive?", "track_shipment"],
];
const HELPDESK: Case[] = [
  ["Assign the login ticket to Sara", "assign_ticket"],
  ["Hand ticket tkt_2 to Sara Shipping", "assign_ticket"],
  ["Give the shipping ticket that is unassigned to Sara", "assign_ticket"],
  ["Bump the oldest open shipping ticket to urgent", "change_ticket_priority"],
  ["Make ticket tkt_4 high priority", "change_ticket_priority"],
  ["The ticket that is about shipping is urgent, raise its priority", "change_ticket_priority"],
  ["Add a comment to tkt_3: 'we are on it'", "comment_ticket"],
  ["Leave a note on the ticket that is pending saying we called the customer", "comment_ticket"],
  ["Resolve ticket tkt_2, the customer confirmed the fix", "resolve_ticket"],
  // A ticket said to be solved is resolved already: closing it is close_ticket's.
  ["Close the ticket that is solved", "close_ticket"],
  // Closing an open ticket needs its resolution: resolve_ticket is started instead.
  ["Close the charged twice ticket, we refunded the second charge", "resolve_ticket"],
  ["Mark the login ticket as done", "resolve_ticket"],
  ["Reopen tkt_5, the problem is back", "reopen_ticket"],
  ["The customer says it is still broken, reopen the ticket", "reopen_ticket"],
  ["Reopen the ticket that was resolved yesterday", "reopen_ticket"],
];

describe("start_action by everyday words starts the capability they ask for (real gateway and legacy service)", () => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld("sqlite");
  });
  afterAll(async () => w?.close());

  const started = async (who: "alice" | "sam", [intent, , patch]: Case) => {
    const out = await w.gw.startAction(w.agent[who], { intent, ...(patch ? { patch } : {}) });
    return (out.capability as string | undefined) ?? `${out.outcome}/${String(out.reason)}`;
  };

  it("a shop customer's words start the shop capability meant", async () => {
    const got: Array<[string, string]> = [];
    for (const c of SHOP) got.push([c[0], await started("alice", c)]);
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(SHOP.map(([intent, want]) => [intent, want])));
  });

  it("a support agent's words start the helpdesk capability meant", async () => {
    const got: Array<[string, string]> = [];
    for (const c of HELPDESK) got.push([c[0], await started("sam", c)]);
    expect(Object.fromEntries(got)).toEqual(
      Object.fromEntries(HELPDESK.map(([intent, want]) => [intent, want])),
    );
  });

  it("words asking for nothing a capability does still start nothing (no capability fits)", async () => {
    for (const intent of ["List my orders.", "My order is late, list my orders"]) {
      const out = await w.gw.startAction(w.agent.alice, { intent });
      expect(out).toMatchObject({ outcome: "rejected", reason: "no_capability_fits" });
    }
  });
});
