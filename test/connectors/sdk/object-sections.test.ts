import { describe, expect, it } from "vitest";
import { objectSections } from "../../../server/connectors/sdk/render-helpers";

describe("a record's page keeps what sits two levels deep", () => {
  it("an object inside an object is on its line by its scalars; a list by its values or its count", () => {
    const page = objectSections({
      id: "r_1",
      fulfilment: {
        method: "express",
        shipment: { carrier: "UPS", tracking_number: "1Z999", events: [{ at: "x" }] },
        tags: ["fragile", "gift"],
        parcels: [{ id: "p1" }, { id: "p2" }],
      },
    });
    expect(page).toContain(
      "- **fulfilment:** method: express · shipment: carrier UPS, tracking number 1Z999 · tags: fragile, gift · parcels: 2 entries",
    );
    expect(objectSections({ empty: { inner: {} } })).toContain("- **empty:** inner: —");
  });
});
