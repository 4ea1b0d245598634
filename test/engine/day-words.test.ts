import { describe, expect, it } from "vitest";
import { rowOf } from "../../server/engine/choice-words";
import { dayOf } from "../../server/engine/day-words";

const now = Date.parse("2026-12-04T12:00:00Z");
const hoursAgo = (h: number) =>
  rowOf("ord_x", { id: "ord_x", created_at: new Date(now - h * 3_600_000).toISOString() });

describe("day words: how far back 'today' and 'yesterday' may reach, for a person in any time zone", () => {
  it("today reaches 24 hours back, yesterday 48; a time to come is not today", () => {
    expect(dayOf(hoursAgo(0.1), "today", now)).toBe(true);
    expect(dayOf(hoursAgo(23.9), "today", now)).toBe(true);
    expect(dayOf(hoursAgo(24.1), "today", now)).toBe(false);
    expect(dayOf(hoursAgo(47), "yesterday", now)).toBe(true);
    expect(dayOf(hoursAgo(49), "yesterday", now)).toBe(false);
    expect(dayOf(hoursAgo(-1), "today", now)).toBe(false);
  });

  it("no answer for a word that is no day word, or a row with no creation time to tell by", () => {
    expect(dayOf(hoursAgo(1), "order", now)).toBeUndefined();
    expect(dayOf(rowOf("ord_y", { id: "ord_y", status: "paid" }), "today", now)).toBeUndefined();
    expect(dayOf(rowOf("ord_z", { id: "ord_z", placed: "not a time" }), "today", now)).toBeUndefined();
  });
});
