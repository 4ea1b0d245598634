import { describe, expect, it } from "vitest";
import { moneyRenderer } from "@/server/connectors/sdk/money-renderer";

/**
 * The answer's text shows declared money keys as money at any depth. A record's view passes
 * through it on every get_context and navigate: what holds no money is given back as it is (the
 * view was copied whole on every answer to change a few fields), what holds some is a copy, and
 * the value given is never changed.
 */
describe("moneyRenderer", () => {
  const asMoney = moneyRenderer({ keys: ["total", "price"], currency: "USD" });

  it("formats money keys at any depth into a copy, leaving the value given as it was", () => {
    const view = {
      id: "ord_1",
      total: 15650,
      items: [
        { sku: "A", price: 1200, qty: 2 },
        { sku: "B", note: "no money here" },
      ],
      shipping: { method: "ground", eta: { days: 3 } },
    };
    const before = structuredClone(view);
    expect(asMoney(view)).toEqual({
      id: "ord_1",
      total: "$156.50",
      items: [
        { sku: "A", price: "$12.00", qty: 2 },
        { sku: "B", note: "no money here" },
      ],
      shipping: { method: "ground", eta: { days: 3 } },
    });
    expect(view).toEqual(before);
    expect(asMoney(6100, "total")).toBe("$61.00");
    // A money key whose value is not whole minor units is left alone.
    expect(asMoney({ total: 1.5, price: "12" })).toEqual({ total: 1.5, price: "12" });
  });

  it("gives back what holds no money as it is, and shares the parts of a copy that hold none", () => {
    const shipping = { method: "ground", eta: { days: 3 } };
    const plain = { id: "ord_2", status: "paid", shipping, tags: ["a", "b"] };
    expect(asMoney(plain)).toBe(plain);
    const withMoney = { total: 100, shipping, items: [{ sku: "A" }, { sku: "B", price: 5 }] };
    const shown = asMoney(withMoney) as typeof withMoney;
    expect(shown).not.toBe(withMoney);
    expect(shown.shipping).toBe(shipping);
    expect(shown.items[0]).toBe(withMoney.items[0]);
    expect(shown.items[1]).toEqual({ sku: "B", price: "$0.05" });
  });

  it("keeps a `__proto__` key of parsed JSON a key", () => {
    const parsed = JSON.parse('{"__proto__": {"total": 250}, "a": 1}');
    const shown = asMoney(parsed) as Record<string, unknown>;
    expect(Object.keys(shown)).toEqual(["__proto__", "a"]);
    expect(Object.getOwnPropertyDescriptor(shown, "__proto__")?.value).toEqual({ total: "$2.50" });
  });
});
