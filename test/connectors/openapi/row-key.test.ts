import { describe, expect, test } from "vitest";
import { rowKey } from "@/server/connectors/openapi/listing-rows";

/** Which field of a listing's row fills its detail page's path parameter (issue 20's rows with no link). */
describe("a row's id for its detail page", () => {
  test("the parameter's name, its last words, the usual id keys, nested one level", () => {
    expect(rowKey({ gid: "g1", id: "x" }, "gid")).toBe("g1");
    expect(rowKey({ objectId: "o1", displayName: "App" }, "applicationObjectId")).toBe("o1");
    expect(rowKey({ object_id: "o2" }, "applicationObjectId")).toBe("o2");
    expect(rowKey({ ID: 7 }, "petId")).toBe(7);
    expect(rowKey({ metadata: { name: "web" } }, "name")).toBe("web");
  });

  test("the id field the parameter's description names, never a foreign key or a guess between two", () => {
    const bill = { AccountIDFK: 3, CompanyIDFK: 4, TransactionID: 981, Subject: "Rent" };
    expect(rowKey(bill, "id", "Bill Transaction ID number")).toBe(981);
    expect(rowKey(bill, "id")).toBeUndefined();
    expect(
      rowKey({ CustomerID: 1, TransactionID: 2 }, "id", "the transaction or customer ID"),
    ).toBeUndefined();
  });
});
