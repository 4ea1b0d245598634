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

/**
 * Issue 23: a record page said the same thing on several lines — "eligible: false · reason: code ·
 * message: words" on every yes/no, `version` that is `updated_at` again, a line per empty field,
 * and "assign ticket: eligible true" beside the link that assigns it. Every connector's view pages
 * (imported ones included) are drawn here.
 */
describe("a record's page says each fact once", () => {
  it("a yes/no is a word, with why in words (the reason's code only where nothing words it)", () => {
    const page = objectSections({
      pay: { eligible: false, reason: "already_paid", message: "It is paid already" },
      move: { eligible: false, reason: "already_shipped" },
      keep: { eligible: true },
      allowed: { close: { eligible: true }, reopen: { eligible: false, reason: "not_closed" } },
    });
    expect(page).toContain("- **pay:** no — It is paid already\n");
    expect(page).not.toContain("already_paid");
    expect(page).toContain("- **move:** no — already_shipped");
    expect(page).toContain("- **keep:** yes");
    expect(page).toContain("- **allowed:** close: yes · reopen: no — not_closed");
  });

  it("fields with nothing in them, or the same time, share a line", () => {
    const at = "2020-12-03T06:42:00Z";
    const page = objectSections({ a: null, b: "x", c: "", created_at: at, updated_at: at, version: at });
    expect(page.split("\n")).toEqual([
      "- **a, c:** —",
      "- **b:** x",
      expect.stringMatching(/^- \*\*created at, updated at, version:\*\* 2020-12-03, \d+ days ago$/),
    ]);
    // Values that only look alike stay apart: the same text is no repetition of a fact.
    expect(objectSections({ status: "open", state: "open" }).split("\n")).toHaveLength(2);
  });

  it("a plain yes for a capability a form on the page starts is that form's link: not said again", () => {
    const offered = new Set(["assign", "move"]);
    const page = objectSections(
      {
        move: { eligible: true },
        pay: { eligible: true },
        allowed: { assign: { eligible: true }, reopen: { eligible: false, reason: "open" } },
        only_linked: { assign: { eligible: true } },
      },
      [],
      undefined,
      offered,
    );
    expect(page.split("\n")).toEqual(["- **pay:** yes", "- **allowed:** reopen: no — open"]);
  });
});

describe("an imported record's page says each fact once too", () => {
  it("empty fields and equal times share a line; a yes/no is a word", async () => {
    const { objectMarkdown } = await import("../../../server/connectors/openapi/render-api-response");
    const at = "2020-12-03T06:42:00Z";
    const page = objectMarkdown({
      id: "inv_1",
      memo: null,
      note: "",
      created_at: at,
      updated_at: at,
      refundable: { eligible: false, reason: "too_old", message: "Older than 90 days" },
    });
    expect(page).toContain("- **memo, note:** —");
    expect(page).toMatch(/^- \*\*created_at, updated_at:\*\* 2020-12-03, \d+ days ago$/m);
    expect(page).toContain("- **refundable:** no — Older than 90 days");
  });
});
