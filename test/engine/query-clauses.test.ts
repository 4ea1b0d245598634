import { describe, expect, it } from "vitest";
import { onlyAsksWhat, queryClauses } from "@/server/engine/query-clauses";

describe("clauses that ask and clauses that describe", () => {
  it("a clause opening with a verb asks, even when a relative clause in it states something", () => {
    expect(queryClauses("pay my order that is waiting for payment, using my balance")).toEqual([
      { text: "pay my order that is waiting for payment", role: "request" },
      { text: "using my balance", role: "request" },
    ]);
    expect(queryClauses("refund the tee which was delivered. thanks")[0]?.role).toBe("request");
  });

  it("a question that wants an answer, never a suggestion or a time (review 55b)", () => {
    for (const q of [
      "What's the cheapest shipping for my cart, and how long would it take?",
      "How much would it cost to ship my cart to my office?",
      "How long do I have to return the backpack?",
      "which coupons apply to my cart?",
      // Review 55c: a question word before a noun or an adjective asks too.
      "What shipping options are there for my cart?",
      "whats the cheapest shipping for my cart",
      "How expensive is express shipping for my cart?",
      "Why is express shipping this expensive?",
      "Whose card would pay for my cart?",
    ])
      expect(onlyAsksWhat(q.toLowerCase()), q).toBe(true);
    for (const q of [
      "How about you refund me for the lamp order?",
      "How about a refund on my lamp order",
      "Why not cancel my lamp order now?",
      "Why don't you just cancel the unpaid kettle order?",
      "What about refunding the shipping on my backpack order?",
      "What if you move tkt_2 to the shipping team?",
      "When my headphones arrive send them back for a refund",
      "Can I return the backpack?",
      "What can I return? Return the backpack, the zip broke.",
    ])
      expect(onlyAsksWhat(q.toLowerCase()), q).toBe(false);
  });

  it('a filler alone is no clause (set AS: "Actually, …" answered `not done: "Actually"`)', () => {
    expect(queryClauses("actually, cancel that unpaid kettle order.").map((c) => c.text)).toEqual([
      "cancel that unpaid kettle order",
    ]);
    expect(queryClauses("so, um, refund me").map((c) => c.text)).toEqual(["refund me"]);
  });

  it("a clause opening with its subject, or stating what is, still describes", () => {
    expect(queryClauses("my parcel that was sent is late, refund me").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
    expect(queryClauses("still broken, reopen it").map((c) => c.role)).toEqual(["situation", "request"]);
  });

  it("a count opens a noun phrase, the next of a list the ask before it takes (set AD)", () => {
    expect(
      queryClauses("order one travel backpack and one logo tee in size s, send them home").map((c) => c.role),
    ).toEqual(["request", "situation", "request"]);
    expect(queryClauses("buy a mug and 2 tees").map((c) => c.role)).toEqual(["request", "situation"]);
  });

  it("what follows the one colon after an ask is its detail; after a situation, the colon asks", () => {
    expect(queryClauses("resolve the ticket where the parcel was lost: refunded it")).toEqual([
      { text: "resolve the ticket where the parcel was lost", role: "request" },
      { text: "refunded it", role: "situation", detail: true },
    ]);
    expect(queryClauses("my coupon failed at checkout: refund me").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
  });

  it("an order to the agent after an ask's detail is an ask of its own, as after a quote", () => {
    // Played: the assignment was read as the resolution's text, and never said.
    expect(
      queryClauses(
        "resolve the headphones ticket: parcel found, and assign the wrong size tee ticket to sid",
      ),
    ).toEqual([
      { text: "resolve the headphones ticket", role: "request" },
      { text: "parcel found", role: "situation", detail: true },
      { text: "assign the wrong size tee ticket to sid", role: "request" },
    ]);
    // A detail that states ("…, and we shipped it") stays the detail.
    expect(
      queryClauses("resolve ticket 2: the customer confirmed the fix, and we sent it").map((c) => c.role),
    ).toEqual(["request", "situation", "situation"]);
  });

  it("'as' joins two clauses only before a subject: 'mark the ticket as pending' is one ask", () => {
    expect(queryClauses("mark the headphones ticket as pending and give it to sara")).toEqual([
      { text: "mark the headphones ticket as pending", role: "request" },
      { text: "give it to sara", role: "request" },
    ]);
    expect(queryClauses("refund me as the parcel never came")).toEqual([
      { text: "refund me", role: "request" },
      { text: "the parcel never came", role: "situation" },
    ]);
  });

  it("what an ask to tell someone says after its 'that' is its detail, not what to do", () => {
    expect(
      queryClauses("tell the customer on the headphones ticket that a new tracking number is coming today"),
    ).toEqual([
      { text: "tell the customer on the headphones ticket", role: "request" },
      { text: "a new tracking number is coming today", role: "situation", told: true },
    ]);
    // An order to the agent after the message is an ask of its own; a topic opener asks nothing.
    expect(
      queryClauses("on the tee ticket: tell the customer we've sent an l, and set it to pending").map((c) => [
        c.text,
        c.role,
      ]),
    ).toEqual([
      ["on the tee ticket", "situation"],
      ["tell the customer", "request"],
      ["we've sent an l", "situation"],
      ["set it to pending", "request"],
    ]);
    // A relative "that" describes the record and stays in the ask.
    expect(queryClauses("reply to the ticket that is about the lamp")).toHaveLength(1);
  });

  it("a dash joins two clauses; a hyphen inside a word does not", () => {
    expect(queryClauses("return the mugs from my kettle order — they arrived chipped")).toEqual([
      { text: "return the mugs from my kettle order", role: "request" },
      { text: "they arrived chipped", role: "situation" },
    ]);
    expect(queryClauses("refund it - it never came").map((c) => c.role)).toEqual(["request", "situation"]);
    expect(queryClauses("exchange my t-shirt for the same-day one")).toHaveLength(1);
  });
});

describe("a question beside an ask", () => {
  it("is the situation the ask decides in: 'where is my order? I want to return it' asks to return", () => {
    expect(queryClauses("where is my backpack order? i want to return it")).toEqual([
      { text: "where is my backpack order", role: "situation" },
      { text: "i want to return it", role: "request" },
    ]);
    expect(queryClauses("did the lamp order ship? cancel it").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
  });

  it("asks when every ask is a question, and a polite question ('can you …?') is an ask", () => {
    expect(queryClauses("where is my order? when will it arrive?").map((c) => c.role)).toEqual([
      "request",
      "request",
    ]);
    expect(queryClauses("has it shipped? can you cancel it?").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
  });
});

describe("a want the speaker denies of themselves", () => {
  it("is their reason, not an ask: 'I don't need them', 'I no longer want it', '我不需要了'", () => {
    const roles = (q: string) => queryClauses(q).map((c) => c.role);
    expect(roles("i want to send back the two mugs from my kettle order, i don't need them.")).toEqual([
      "request",
      "situation",
    ]);
    expect(roles("i want to return it, i don’t want it anymore")).toEqual(["request", "situation"]);
    expect(roles("refund the lamp, we no longer need it")).toEqual(["request", "situation"]);
    expect(roles("我要退货，我不需要了")).toEqual(["request", "situation"]);
  });

  it("still asks where the rest of the clause asks, and a want said is an ask", () => {
    const roles = (q: string) => queryClauses(q).map((c) => c.role);
    expect(roles("i don't want it, please take it back")).toEqual(["situation", "request"]);
    expect(roles("i don't need the lamp, can you cancel it")).toEqual(["situation", "request"]);
    expect(roles("i want to return the mugs. i also want to cancel my kettle order")).toEqual([
      "request",
      "request",
    ]);
    // "不要发货" tells someone not to ship: an ask.
    expect(roles("我要退货，不要发货")).toEqual(["request", "request"]);
  });

  it("a topic is a preposition before a record's phrase; 're-assign' and 'on second thought' ask", () => {
    const roles = (q: string) => queryClauses(q).map((c) => c.role);
    expect(roles("on the tee ticket: tell the customer we sent an l")[0]).toBe("situation");
    expect(roles("re-assign tkt_1 to bella and make it urgent")).toEqual(["request", "request"]);
    expect(roles("on second thought, refund it")).toContain("request");
  });
});

describe("text the user quotes", () => {
  // Played (demo, Sam): "… and add an internal note: 'Customer wants L, check stock.'" was cut at
  // the quote's comma, and the note was offered as an ask without its text.
  it("is one piece, never cut by its commas, colons, full stops or 'and', and stays with its ask", () => {
    for (const quote of [
      "'customer wants l, check stock.'",
      '"customer wants l, check stock."',
      "‘customer wants l, check stock.’",
      "“customer wants l, check stock.”",
      "'refund sent and ticket closed.'",
      "'l wanted: check stock? then call.'",
    ])
      expect(
        queryClauses(`give the wrong size tee ticket to sid and add an internal note: ${quote}`),
      ).toEqual([
        { text: "give the wrong size tee ticket to sid", role: "request" },
        { text: "add an internal note", role: "request" },
        { text: quote, role: "situation", told: true },
      ]);
  });

  it("an order to the agent after the quote is an ask of its own; a quote without a colon stays in its ask", () => {
    expect(
      queryClauses("add an internal note: 'customer wants l, check stock.' and give the tee ticket to sid"),
    ).toEqual([
      { text: "add an internal note", role: "request" },
      { text: "'customer wants l, check stock.'", role: "situation", told: true },
      { text: "give the tee ticket to sid", role: "request" },
    ]);
    expect(queryClauses("assign it to sid and add a note saying 'the parcel is lost, sorry'")).toEqual([
      { text: "assign it to sid", role: "request" },
      // Its "is" is the quote's: the ask still asks.
      { text: "add a note saying 'the parcel is lost, sorry'", role: "request" },
    ]);
    // Split off by a mark, the quote is still the text of the ask before it.
    expect(queryClauses("add a note — 'on its way, sorry' — then close it").map((c) => c.role)).toEqual([
      "request",
      "situation",
      "request",
    ]);
  });

  // A review: the words before the colon were read as the ask, the order after it as their text.
  it("words before a colon that only name a record are the topic of the order after it", () => {
    expect(
      queryClauses(
        "make the headphones ticket high priority. alice's lamp order problem: set the ticket to pending",
      ),
    ).toEqual([
      { text: "make the headphones ticket high priority", role: "request" },
      { text: "alice's lamp order problem", role: "situation", topic: true },
      { text: "set the ticket to pending", role: "request" },
    ]);
    expect(queryClauses("lamp order problem: set it to pending").map((c) => [c.role, !!c.topic])).toEqual([
      ["situation", true],
      ["request", false],
    ]);
    // An ask before the colon keeps what follows as its text, an order or not.
    expect(queryClauses("resolve ticket tkt_2: set it aside").map((c) => c.role)).toEqual([
      "request",
      "situation",
    ]);
    // A quote cut out of the words leaves "add a note: give …": the note is still the ask.
    expect(queryClauses("add an internal note: give the ticket to sid").map((c) => c.role)).toEqual([
      "request",
      "situation",
    ]);
    expect(queryClauses("resolve the headphones ticket: parcel found").map((c) => c.role)).toEqual([
      "request",
      "situation",
    ]);
  });

  it("a verb and its object ask, whatever state the object's words say; a possessive opens no ask", () => {
    expect(queryClauses("pay, and give the ticket sara is handling to bella").map((c) => c.role)).toEqual([
      "request",
      "request",
    ]);
    expect(queryClauses("apparently the parcel is lost, refund me").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
    expect(queryClauses("alice's lamp order problem, resolve it").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
  });

  it("a modal before 'have' says what should have been, no ask (set CI)", () => {
    const roles = (q: string) => queryClauses(q).map((c) => c.role);
    expect(
      roles("i want a refund for the backpack order's shipping — it cost more than it should have."),
    ).toEqual(["request", "situation"]);
    expect(roles("it must have been lost, send a new one")).toEqual(["situation", "request"]);
    // A modal that asks still asks.
    expect(roles("you should refund it")).toEqual(["request"]);
  });
});
