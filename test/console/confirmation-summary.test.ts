import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ConfirmationSummary } from "@/components/confirmation-summary";
import { summaryDiff } from "@/components/summary-diff";
import { approvalMessage } from "@/mcp/approval-message";
import { capabilityTitle } from "@/server/connectors/connector-registry";
import { withShown } from "@/server/connectors/sdk/decision-summary";
import { renderSummary, summaryHtml, summaryText } from "@/server/connectors/sdk/render-decision-summary";
import { shopSummary } from "@/server/connectors/shop/shop-summary-fields";
import { decisionSentence } from "@/server/engine/decision-sentence";
import { DEFAULT_NOTE, markedSummary } from "@/server/engine/defaulted-fields";
import { summaryDigest } from "@/server/engine/summary-digest";

// A checkout summary as the shop connector writes it (server/connectors/shop/capabilities/checkout.ts).
const checkout = (quantity: number, balance = 100_000) =>
  withShown(checkoutFacts(quantity, balance), shopSummary("Place the order and pay", "Total to be charged"));
const checkoutFacts = (quantity: number, balance: number) => ({
  title: "Place the order and pay",
  decision: { verb: "Pay", amount: 1800 * quantity + 500, currency: "USD", from: "Store credit" },
  amount_label: "Total to be charged",
  items: [
    { product_id: "prod_mug", name: "Signpost Mug", quantity, unit_price: 1800, line_total: 1800 * quantity },
  ],
  sum: {
    terms: [
      { label: "items", amount: 1800 * quantity },
      { label: "shipping", amount: 500 },
    ],
    total: 1800 * quantity + 500,
  },
  shipping_method: { value: "standard", label: "Standard" },
  amount: 1800 * quantity + 500,
  currency: "USD",
  delivery_estimate: "About 5 days after payment",
  address: "Office: 1 Market Street, 12345 Springfield, US",
  payment_method: { type: "balance", label: "Store credit" },
  now: { balance_before: balance, balance_after: balance - (1800 * quantity + 500) },
});

describe("the confirm screen's summary (the same markup in the console and the MCP App)", () => {
  it("says what happens in one sentence, from the connector's decision", () => {
    expect(decisionSentence(checkout(2))).toBe("Pay $41.00 from Store credit");
    expect(
      decisionSentence(
        withShown(
          { decision: { verb: "Refund", amount: 700, currency: "USD", to: "Store credit" } },
          shopSummary("Refund"),
        ),
      ),
    ).toBe("Refund $7.00 to Store credit");
    expect(
      decisionSentence(
        withShown({ decision: { verb: "Assign", object: "ticket T-1 to Bob" } }, shopSummary("x")),
      ),
    ).toBe("Assign ticket T-1 to Bob");
    // A summary without typed parts names no decision: nothing is read from its keys.
    expect(decisionSentence({ amount: 5, decision: { verb: "Pay", amount: 500 } })).toBeNull();
  });

  it("renders the sentence, what the total is, line totals, the address, the balance, who asked and until when", () => {
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "checkout",
        title: "Checkout",
        actionId: "act_1",
        version: 3,
        summary: checkout(2),
        status: "pending",
        request: {
          agentName: "Alice's assistant",
          requestedAt: "2026-12-01T10:00:00.000Z",
          expiresAt: "2026-12-01T10:30:00.000Z",
        },
      }),
    );
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(html).toContain('data-field="title">Pay $41.00 from Store credit</h2>');
    for (const expected of [
      "Total to be charged $41.00",
      "Items #1 Product prod_mug Item Signpost Mug Quantity 2 Unit price $18.00 Line total $36.00",
      "Shipping Standard",
      "Sum items $36.00 + shipping $5.00 = $41.00",
      "Office: 1 Market Street, 12345 Springfield, US",
      "Balance before $1,000.00",
      "Balance after $959.00",
      "Delivery About 5 days after payment",
      "Asked by Alice&#x27;s assistant, 1 Dec 2026, 10:00 UTC",
      "Valid until 1 Dec 2026, 10:30 UTC",
      "Waiting for approval",
    ])
      expect(text).toContain(expected);
    // Raw keys and enum values never show as such.
    expect(text).not.toMatch(/balance_before|payment_type|standard|\{/);
  });

  it("names what the agent changed, in the screen's words", () => {
    const changes = summaryDiff(checkout(2), checkout(3));
    expect(changes.map((c) => `${c.label}: ${c.before} → ${c.after}`)).toEqual(
      expect.arrayContaining([
        "What happens: Pay $41.00 from Store credit → Pay $59.00 from Store credit",
        "Items › prod_mug › Quantity: 2 → 3",
        "Items › prod_mug › Line total: $36.00 → $54.00",
        "Total to be charged: $41.00 → $59.00",
        "Balance after: $959.00 → $941.00",
      ]),
    );
    expect(summaryDiff(checkout(2), checkout(2))).toEqual([]);
  });

  it("the balance shown for context is not part of what is approved (not in the digest)", () => {
    expect(summaryDigest(checkout(2, 100_000))).toBe(summaryDigest(checkout(2, 50_000)));
    expect(summaryDigest(checkout(2))).not.toBe(summaryDigest(checkout(3)));
  });
});

describe("one renderer, every surface (issue 19)", () => {
  it("draws every row it is given, past any limit: a value is never left off the screen", () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ d: "pen", q: i }));
    const r = renderSummary({ items, on_behalf_of: "acct_last" }, "x");
    expect(r.rows.length).toBe(1 + 600 * 3 + 1);
    expect(summaryText(r)).toContain("- on_behalf_of: acct_last");
  });

  it("shows undeclared numbers as they are and every key of an object, whatever its keys are called", () => {
    const summary = withShown(
      {
        unit_price: 499.99,
        total: 500,
        payment: { label: "Card payment $5.00", name: "Card", amount: 499.99, on_behalf_of: "acct_x" },
      },
      { title: "A write", fields: {} },
    );
    const text = summaryText(renderSummary(summary, "x"));
    expect(text).toContain("- unit_price: 499.99");
    expect(text).toContain("- total: 500");
    // The only dollar sign is the one the agent wrote into a label.
    expect(text.match(/\$/g)).toHaveLength(1);
    for (const key of ["label: Card payment $5.00", "name: Card", "amount: 499.99", "on_behalf_of: acct_x"])
      expect(text).toContain(key);
  });

  it("shows bidi, zero-width and line-break characters by their code point, in labels and values alike", () => {
    const summary = withShown(
      { "ke\u200By": "acct_\u202E4321", memo: "a\nb\u2066c\u061Cd", spelled: "<U+202E>" },
      { title: "T\u202Eitle", fields: {} },
    );
    const r = renderSummary(summary, "x");
    const all = `${summaryText(r)}\n${summaryHtml(r)}`;
    expect(all).toContain("acct_<U+202E>4321");
    expect(all).not.toMatch(/[\u202E\u200B\u2066\u061C]/);
    expect(summaryText(r)).toContain("ke<U+200B>y");
    expect(summaryText(r)).toContain("a<U+000A>b<U+2066>c<U+061C>d");
    // Text that spells a code point is not taken for one.
    expect(summaryText(r)).toContain("<U+003C>U+202E>");
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, { capability: "x", title: "X", actionId: "a", version: 1, summary }),
    );
    expect(html).toContain("acct_&lt;U+202E&gt;4321");
    expect(html).not.toMatch(/[\u202E\u200B\u2066\u061C]/);
  });

  it("a summary without typed parts is headed by the capability's declared title, not a guess from its id", () => {
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "crm_close_account",
        title: "Close a customer account",
        actionId: "a",
        version: 1,
        summary: { anything: 1 },
      }),
    );
    expect(html).toMatch(/data-field="title"[^>]*>Close a customer account</);
    expect(html).not.toContain("crm close account");
    // The id is still there for developers.
    expect(html).toContain("<code>crm_close_account</code>");
    // The console and the faces read titles from the declarations (an unknown id stays as it is).
    expect(capabilityTitle("checkout")).toBe("Checkout");
    expect(capabilityTitle("no_such_capability")).toBe("no_such_capability");
  });

  it("the console screen, the email and the agent's text carry the same rows", () => {
    const summary = checkout(2);
    const r = renderSummary(summary, "checkout");
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "checkout",
        title: "Checkout",
        actionId: "a",
        version: 1,
        summary,
      }),
    );
    const text = summaryText(r);
    const mail = summaryHtml(r);
    for (const row of [...r.rows, ...r.now]) {
      const escaped = row.text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
      expect(text).toContain(`${row.label}:${row.text ? ` ${row.text}` : ""}`);
      expect(html).toContain(escaped);
      expect(mail).toContain(escaped);
    }
  });

  it("the arithmetic shows once, on one line, the same on the screen, the email, the agent's text and the host's message", () => {
    const facts = checkoutFacts(2, 100_000);
    const summary = withShown(
      {
        ...facts,
        sum: {
          terms: [
            { label: "items", amount: 3600 },
            { label: "shipping", amount: 500 },
            { label: "coupon SAVE5", amount: -500 },
          ],
          total: 3600,
        },
        amount: 3600,
      },
      shopSummary("Place the order and pay", "Total to be charged"),
    );
    const line = "items $36.00 + shipping $5.00 − coupon SAVE5 $5.00 = $36.00";
    const r = renderSummary(summary, "checkout");
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "checkout",
        title: "Checkout",
        actionId: "a",
        version: 1,
        summary,
      }),
    );
    for (const surface of [html, summaryHtml(r), summaryText(r), approvalMessage(summary, "act_1")]) {
      expect(surface).toContain(line);
      // Once: no separate subtotal, shipping price or discount rows to add up again.
      expect(surface.split("$5.00").length - 1).toBe(2);
    }
    // Terms that do not add up are never shown as if they did.
    const wrong = withShown(
      {
        sum: {
          terms: [
            { label: "items", amount: 3600 },
            { label: "shipping", amount: 500 },
          ],
          total: 3600,
        },
      },
      shopSummary("x"),
    );
    expect(summaryText(renderSummary(wrong, "x"))).toContain("= $36.00 (the terms add up to $41.00)");
  });

  it("a value the user did not choose is marked so on the screen, the email, the agent's text and the host's message", () => {
    const summary = markedSummary(checkout(2), { defaulted: ["shipping_method"] });
    const r = renderSummary(summary, "checkout");
    expect(r.rows.find((row) => row.label === "Shipping")?.note).toBe(DEFAULT_NOTE);
    const html = renderToStaticMarkup(
      createElement(ConfirmationSummary, {
        capability: "checkout",
        title: "Checkout",
        actionId: "a",
        version: 1,
        summary,
      }),
    );
    for (const surface of [html, summaryHtml(r), summaryText(r), approvalMessage(summary, "act_1")])
      expect(surface).toContain(`(${DEFAULT_NOTE})`);
  });
});
