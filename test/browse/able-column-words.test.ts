import { describe, expect, it } from "vitest";
import { columnsWordsName } from "@/server/browse/words-rows-show";

/**
 * Set BK: "my delivered orders returnable" named no `can_return` column, and the model asked for it
 * itself. "-able" is read as its verb where words name a column, on both sides (review 60c: a
 * column named `billable` was no longer found by "billable"), and never for a row's text.
 */
describe("words name columns: '-able' as its verb, the column holding most of them", () => {
  it.each([
    ["my delivered orders returnable", ["can_return", "status"], ["can_return"]],
    ["billable tickets", ["billable", "subject"], ["billable"]],
    ["available products", ["available", "name"], ["available"]],
    ["refundable orders", ["refundable_amount", "total"], ["refundable_amount"]],
    // Set BO: the column holding every word, not each column holding one of them.
    [
      "orders shipping owed to customer",
      ["customer_id", "shipping_method", "shipping_price", "shipping_owed_to_customer"],
      ["shipping_owed_to_customer"],
    ],
    [
      "shipping price and method",
      ["shipping_method", "shipping_price"],
      ["shipping_method", "shipping_price"],
    ],
  ])("%s → %j", (words, fields, columns) => {
    expect(columnsWordsName(words, fields).columns).toEqual(columns);
  });
});
