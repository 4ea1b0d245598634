import { describe, expect, it } from "vitest";
import { columnsWordsName } from "@/server/browse/words-rows-show";

/**
 * Set BK: "my delivered orders returnable" named no `can_return` column, and the model asked for it
 * itself. "-able" is read as its verb where words name a column, on both sides (review 60c: a
 * column named `billable` was no longer found by "billable"), and never for a row's text.
 */
describe("'-able' words name columns", () => {
  it.each([
    ["my delivered orders returnable", ["can_return", "status"], ["can_return"]],
    ["billable tickets", ["billable", "subject"], ["billable"]],
    ["available products", ["available", "name"], ["available"]],
    ["refundable orders", ["refundable_amount", "total"], ["refundable_amount"]],
  ])("%s → %j", (words, fields, columns) => {
    expect(columnsWordsName(words, fields).columns).toEqual(columns);
  });
});
