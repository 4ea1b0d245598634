import { describe, expect, it } from "vitest";
import { queryClauses } from "@/server/engine/query-clauses";

describe("clauses that ask and clauses that describe", () => {
  it("a clause opening with a verb asks, even when a relative clause in it states something", () => {
    expect(queryClauses("pay my order that is waiting for payment, using my balance")).toEqual([
      { text: "pay my order that is waiting for payment", role: "request" },
      { text: "using my balance", role: "request" },
    ]);
    expect(queryClauses("refund the tee which was delivered. thanks")[0]?.role).toBe("request");
  });

  it("a clause opening with its subject, or stating what is, still describes", () => {
    expect(queryClauses("my parcel that was sent is late, refund me").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
    expect(queryClauses("still broken, reopen it").map((c) => c.role)).toEqual(["situation", "request"]);
  });

  it("what follows the one colon after an ask is its detail; after a situation, the colon asks", () => {
    expect(queryClauses("resolve the ticket where the parcel was lost: refunded it")).toEqual([
      { text: "resolve the ticket where the parcel was lost", role: "request" },
      { text: "refunded it", role: "situation" },
    ]);
    expect(queryClauses("my coupon failed at checkout: refund me").map((c) => c.role)).toEqual([
      "situation",
      "request",
    ]);
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
