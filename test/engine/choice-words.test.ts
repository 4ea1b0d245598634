import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ageInWords,
  choicesFor,
  describedInWords,
  fieldOfLists,
  freeTextInWords,
  isFreeText,
  itemShapeOf,
  itemsInWords,
  matchSentWords,
  namedInWords,
  rowsCarrying,
  wholeQuote,
} from "@/server/engine/choice-words";

const items = z.array(z.object({ product_id: z.string(), quantity: z.number().int() }).strict());
const lists = {
  cart: [
    { product_id: "prod_mug", name: "Signpost Mug", quantity: 2 },
    { product_id: "prod_tee", name: "Logo Tee (M)", quantity: 1 },
  ],
  catalog: [
    { product_id: "prod_mug", name: "Signpost Mug" },
    { product_id: "prod_tee_l", name: "Logo Tee (L)" },
    { product_id: "prod_tee_s", name: "Logo Tee (S)" },
  ],
};

/** The words → choices mechanism on its own: list fields and free text, for any connector's rows. */
describe("choice words", () => {
  const shape = itemShapeOf(items);
  const rows = rowsCarrying("product_id", lists);

  it("reads a list field's shape, and which field each option list fills", () => {
    expect(shape).toEqual({ key: "product_id", count: "quantity" });
    expect(itemShapeOf(z.string())).toBeUndefined();
    const fields = { items, coupon_code: z.string().optional() };
    expect(fieldOfLists(fields, { ...lists, available_coupons: [{ code: "SAVE5" }] })).toEqual({
      cart: "items[].product_id",
      catalog: "items[].product_id",
      available_coupons: "coupon_code",
    });
    // Rows keyed `id` fit both fields: the list a field's description names is that field's.
    const two = {
      item_ids: z.array(z.string()).optional().describe("the ids to return, from options.returnable_items"),
      item_id: z.string().optional().describe("the id to swap, from options.exchangeable_items"),
    };
    const rowsOf = [{ id: "line_1", name: "Kettle" }];
    expect(fieldOfLists(two, { returnable_items: rowsOf, exchangeable_items: rowsOf })).toEqual({
      returnable_items: "item_ids",
      exchangeable_items: "item_id",
    });
  });

  it("names entries by name and size with their counts; a list named whole takes its rows and counts; ties are candidates", () => {
    if (!shape) throw new Error("no shape");
    expect(itemsInWords(rows, shape, "buy 2 Logo Tee L and a mug, ship to the office")).toMatchObject({
      kind: "items",
      items: [
        { product_id: "prod_tee_l", quantity: 2 },
        { product_id: "prod_mug", quantity: 1 },
      ],
    });
    expect(itemsInWords(rows, shape, "two Signpost mugs please")).toMatchObject({
      items: [{ product_id: "prod_mug", quantity: 2 }],
    });
    expect(itemsInWords(rows, shape, "everything in my cart")).toMatchObject({
      kind: "items",
      items: [
        { product_id: "prod_mug", quantity: 2 },
        { product_id: "prod_tee", quantity: 1 },
      ],
    });
    // A catalog is never taken whole: it has no counted lines.
    expect(itemsInWords(rows, shape, "everything in the catalog").kind).toBe("none");
    const tee = itemsInWords(rows, shape, "a tee");
    expect(tee.kind).toBe("several");
    expect(itemsInWords(rows, shape, "pay from my balance").kind).toBe("none");
    // What not to take is never taken: the cart named to exclude it, a product after "not".
    for (const request of [
      "Buy one mug, express to my office, pay with my card. Nothing else from the cart.",
      "buy a mug but not the tee from my cart",
      "Buy a mug. Don't include my cart.",
    ])
      expect(itemsInWords(rows, shape, request), request).toMatchObject({
        kind: "items",
        items: [{ product_id: "prod_mug", quantity: 1 }],
      });
  });

  it('a contraction\'s tail is no word: "what\'s" does not name the size-S tee, "size S" still does', () => {
    if (!shape) throw new Error("no shape");
    const request =
      "Buy what's in my cart. Use a coupon if one applies, ship it to my office and pay from my balance.";
    expect(itemsInWords(rows, shape, request)).toMatchObject({
      kind: "items",
      items: [
        { product_id: "prod_mug", quantity: 2 },
        { product_id: "prod_tee", quantity: 1 },
      ],
    });
    expect(itemsInWords(rows, shape, "the one that’s on its way").kind).toBe("none");
    expect(itemsInWords(rows, shape, "a Logo Tee in size S")).toMatchObject({
      items: [{ product_id: "prod_tee_s", quantity: 1 }],
    });
  });

  it("takes free text only where the words clearly give it", () => {
    const resolution = z.string().min(10).max(2000);
    expect(isFreeText("resolution", resolution, {})).toBe(true);
    expect(isFreeText("address_id", z.string().max(64), {})).toBe(false);
    expect(freeTextInWords("resolution", "close tkt_1; resolution: refunded the charge", false)).toBe(
      "refunded the charge",
    );
    expect(freeTextInWords("reason", 'return it, "arrived broken"', true)).toBe("arrived broken");
    // Two free-text fields missing: a lone quote is not taken for either.
    expect(freeTextInWords("reason", 'return it, "arrived broken"', false)).toBeUndefined();
    expect(freeTextInWords("resolution", "resolve tkt_1, it is done", true)).toBeUndefined();
    // The detail after the ask's one colon, for the one free-text field the node needs.
    // As written: its full stop is the user's sentence's (round 8's comment lost it).
    expect(freeTextInWords("resolution", "Resolve ticket tkt_2: customer confirmed fix works.", true)).toBe(
      "customer confirmed fix works.",
    );
    expect(
      freeTextInWords("resolution", "Resolve ticket tkt_2: customer confirmed fix works", false),
    ).toBeUndefined();
    // Not a lone word, not after a one-word head, not with two colons, not a time.
    expect(freeTextInWords("resolution", "resolve tkt_2: done", true)).toBeUndefined();
    expect(freeTextInWords("resolution", "Note: customer confirmed fix works", true)).toBeUndefined();
    expect(freeTextInWords("resolution", "resolve tkt_2: fixed: confirmed by phone", true)).toBeUndefined();
    expect(freeTextInWords("resolution", "resolve tkt_2 at 10:30 today", true)).toBeUndefined();
  });

  it("takes quoted text exactly as written: only the quote marks go, the punctuation inside stays, the sentence's after the quote does not", () => {
    const ask = "Add a comment to the ticket about the SAVE5 coupon: ";
    const inner = "We re-applied the coupon, refund of 5.00 on its way.";
    for (const [open, close] of [
      ["'", "'"],
      ['"', '"'],
      ["‘", "’"],
      ["“", "”"],
    ] as const) {
      expect(freeTextInWords("body", `${ask}${open}${inner}${close}`, true), open).toBe(inner);
      // The sentence's own full stop after the quote is the request's, not the comment's.
      expect(freeTextInWords("body", `${ask}${open}${inner.slice(0, -1)}${close}.`, true), open).toBe(
        inner.slice(0, -1),
      );
      for (const end of ["!", "?"])
        expect(freeTextInWords("body", `${ask}${open}Refund sent${end}${close}`, true), open).toBe(
          `Refund sent${end}`,
        );
      // Labelled with the field's name, the same.
      expect(freeTextInWords("body", `comment on tkt_5, body: ${open}${inner}${close}`, false), open).toBe(
        inner,
      );
    }
    // Unquoted after the ask's colon: as written too, its closing punctuation included.
    expect(freeTextInWords("body", `${ask}${inner}`, true)).toBe(inner);
    expect(freeTextInWords("body", `${ask}is the refund on its way?`, true)).toBe(
      "is the refund on its way?",
    );
    // An apostrophe inside a single-quoted text is kept; two quoted spans are not one text.
    expect(freeTextInWords("body", `${ask}'we can't re-apply it.'`, true)).toBe("we can't re-apply it.");
    expect(wholeQuote("'a' and 'b'")).toBeUndefined();
    expect(wholeQuote("no quote here.")).toBeUndefined();
  });

  it("a quote is the text whole: its own colon is no second colon, and what follows it is another ask", () => {
    // Played (demo): the note's quote held a comma and more; the text is the quote, all of it.
    expect(
      freeTextInWords("body", "add an internal note (tkt_9): 'Customer wants L: check stock.'", true),
    ).toBe("Customer wants L: check stock.");
    expect(
      freeTextInWords(
        "body",
        "add an internal note: 'Customer wants L, check stock.' and give it to Sid",
        true,
      ),
    ).toBe("Customer wants L, check stock.");
    // Two quotes after the colon are not one text: the detail stays as written.
    expect(freeTextInWords("body", "add a note: 'a' and 'b'", true)).toBe("'a' and 'b'");
    // Without a colon, the one quote in single marks ("saying '…'"), as in double marks.
    expect(
      freeTextInWords("body", "add an internal note saying ‘Customer wants L, check stock.’", true),
    ).toBe("Customer wants L, check stock.");
    expect(freeTextInWords("body", "add a note saying 'not yet' and 'later on'", true)).toBeUndefined();
  });

  it("names the record its age words describe, whether or not it can take the change (its verdict said with it); none fitting is said, a tie names none", () => {
    // Any connector's rows: an id key named after the field, values a person would say.
    const offered = {
      cases: [
        {
          case_id: "c1",
          title: "Login fails",
          state: "open",
          queue: "web",
          opened_at: "2026-11-01T10:00:00Z",
          possible: "yes",
        },
        {
          case_id: "c2",
          title: "Slow page",
          state: "open",
          queue: "web",
          opened_at: "2026-10-01T09:00:00Z",
          possible: "yes",
        },
        {
          case_id: "c3",
          title: "Old invoice",
          state: "closed",
          queue: "billing",
          opened_at: "2026-09-01T09:00:00Z",
          possible: "no",
        },
        {
          case_id: "c4",
          title: "Refund",
          state: "open",
          queue: "billing",
          opened_at: "2026-11-05T08:00:00Z",
          possible: "yes",
        },
      ],
    };
    const rows = choicesFor("case_id", offered);
    const one = (words: string) => {
      const m = ageInWords(rows, words, "Case");
      return m?.kind === "one" ? `${m.choice.value}${m.able ? "" : " (cannot)"}` : m?.kind;
    };
    // Issue 23: the closed c3 is the oldest case; the user meant it, so it is named (with its
    // verdict for the caller to say), never the younger c2 that could take the change.
    expect(one("escalate the oldest case")).toBe("c3 (cannot)");
    expect(one("escalate the oldest open web case")).toBe("c2");
    expect(one("close the newest billing case")).toBe("c4");
    expect(one("my latest case")).toBe("c4");
    expect(one("the oldest mobile case")).toBe("none");
    expect(ageInWords(rows, "escalate the mobile case", "Case")).toBeUndefined();
    // Two at the same time: no pick.
    const tied = choicesFor("case_id", {
      cases: offered.cases.map((c) => ({ ...c, opened_at: "2026-11-01T10:00:00Z" })),
    });
    expect(ageInWords(tied, "the oldest case", "Case")?.kind).toBe("tie");
  });

  it("names the one record the words right before its name describe by its own values; words after the name (what to do) never count", () => {
    const rows = choicesFor("ticket_id", {
      tickets: [
        { id: "t1", subject: "Charged twice", priority: "high", assignee: "unassigned", possible: "yes" },
        { id: "t2", subject: "Wrong size", priority: "urgent", assignee: "unassigned", possible: "yes" },
        { id: "t3", subject: "Late parcel", priority: "urgent", assignee: "tm_sid", possible: "yes" },
        { id: "t4", subject: "Old one", priority: "urgent", assignee: "unassigned", possible: "no" },
      ],
    });
    const named = (words: string) => describedInWords(rows, words, "Ticket")?.value;
    expect(named("assign the unassigned urgent ticket to Sara")).toBe("t2");
    // Two fit: none named.
    expect(named("assign the urgent ticket")).toBeUndefined();
    // "to urgent" is what to do, not which ticket.
    expect(named("set the ticket to urgent")).toBeUndefined();
    expect(named("assign the unassigned ticket")).toBeUndefined();
  });
});

describe("declared phrases name a row only whole", () => {
  // As a connector declares them (NodeDefinition.valueWords): a word alone, or a phrase.
  const rows = choicesFor("payment_type", {}, z.enum(["balance", "card"]), {
    balance: ["balance", "store credit", "shop credit", "account balance", "wallet"],
    card: ["card", "credit card", "debit card"],
  });

  it("a phrase's word alone names nothing: 'in the shop' is no way to pay", () => {
    expect(namedInWords(rows, "the cheapest thing in the shop that's in stock")).toBeUndefined();
    expect(namedInWords(rows, "what would my account look like")).toBeUndefined();
  });

  it("a phrase names its row only word after word: 'take the note off it' is no 'take off hold'", () => {
    const status = choicesFor("status", {}, z.enum(["open", "pending"]), {
      open: ["take off hold", "reopen"],
      pending: ["on hold", "waiting on the customer"],
    });
    expect(namedInWords(status, "Keep tkt_4 on hold and take the kettle note off it")?.value).toBe("pending");
    expect(namedInWords(status, "take it off hold")?.value).toBe("open");
    expect(namedInWords(status, "please take off hold the ticket")?.value).toBe("open");
  });

  it("the whole phrase, or a word declared alone, names its row", () => {
    expect(namedInWords(rows, "pay from my shop credit")?.value).toBe("balance");
    expect(namedInWords(rows, "use my store credit")?.value).toBe("balance");
    expect(namedInWords(rows, "pay with my credit card")?.value).toBe("card");
    expect(namedInWords(rows, "from my wallet")?.value).toBe("balance");
    // A value sent for the field is all about it: a phrase's word alone may name its rows.
    expect(matchSentWords(rows, "shop credit")).toMatchObject({ kind: "one", choice: { value: "balance" } });
    expect(matchSentWords(rows, "credit")).toMatchObject({ kind: "several" });
  });
});
