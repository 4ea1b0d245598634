import { describe, expect, it } from "vitest";
import { choicesFor } from "@/server/engine/choice-words";
import { inSentence } from "@/server/engine/in-sentence";
import { whyPicked } from "@/server/engine/why-picked";

/**
 * Why a record was taken from the user's words, as the answer quotes it. Round 7's model read
 * "ord_delivered fits too but The order has already been delivered": a row's verdict is its own
 * sentence, and inside this one it reads as a clause.
 */
describe("why a record was picked", () => {
  const rows = choicesFor("order_id", {
    orders: [
      { id: "ord_pending", items: "Electric Kettle ×1", possible: "yes" },
      { id: "ord_delivered", items: "Electric Kettle ×1", possible: "The order has already been delivered." },
    ],
  });

  it("quotes a passed-over row's verdict as a clause, without its capital or full stop", () => {
    const picked = rows[0];
    if (!picked) throw new Error("no rows");
    const why = whyPicked(rows, picked, ["kettle"]);
    expect(why).toContain("ord_delivered fits too but the order has already been delivered");
    expect(why).not.toMatch(/but [A-Z]|delivered\./);
  });

  it("lowers only an ordinary first word: acronyms, names alone and 'I' stay", () => {
    expect(inSentence("The order is cancelled.")).toBe("the order is cancelled");
    expect(inSentence("SAVE5 is expired")).toBe("SAVE5 is expired");
    expect(inSentence("I cannot")).toBe("I cannot");
    expect(inSentence("Inactive")).toBe("Inactive");
    expect(inSentence("already urgent")).toBe("already urgent");
  });
});
