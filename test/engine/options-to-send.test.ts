import { describe, expect, it } from "vitest";
import { optionsToSend } from "@/server/engine/action-response";

/** What an advance re-sends of the choices: only what the agent was not shown in this action. */
describe("options sent on an advance", () => {
  const a = { id: "a", label: "A" };
  const b = { id: "b", label: "B" };
  const c = { id: "c", label: "C" };

  it("names an unchanged list instead of sending it again", () => {
    expect(optionsToSend({ rows: [a, b] }, { since: { rows: [a, b] } })).toEqual({
      options: {},
      options_unchanged: ["rows"],
    });
  });

  it("sends only the new rows of a list that grew, and says how many it already has", () => {
    expect(optionsToSend({ rows: [a, b, c] }, { since: { rows: [a, b] } })).toEqual({
      options: { rows: [c] },
      options_unchanged: ["rows (2 of its rows, as sent before)"],
    });
  });

  it("sends a list whole when a row the agent was shown is gone (no stale row looks offered)", () => {
    expect(optionsToSend({ rows: [a, c] }, { since: { rows: [a, b] } })).toEqual({
      options: { rows: [a, c] },
      options_unchanged: [],
    });
  });

  it("keeps how to read the lists beside whichever list is sent", () => {
    const out = optionsToSend(
      { rows: [a, c], order_of: { rows: "newest first" }, field_of: { rows: "row_id" } },
      { since: { rows: [a], order_of: { rows: "newest first" }, field_of: { rows: "row_id" } } },
    );
    expect(out.options).toEqual({
      rows: [c],
      order_of: { rows: "newest first" },
      field_of: { rows: "row_id" },
    });
  });

  it("sends everything when asked for the full lists", () => {
    expect(optionsToSend({ rows: [a] }, "full")).toEqual({ options: { rows: [a] } });
  });
});
