import { describe, expect, it } from "vitest";
import { isCreationKey, isTimestamp, whenText } from "@/server/connectors/sdk/when-text";

describe("times as lists show them", () => {
  const now = Date.parse("2026-12-03T06:45:00Z");
  it("to the minute in UTC within two days, the day beyond, with how long ago (or how soon) in one unit", () => {
    expect(whenText("2026-12-03T06:44:40.123Z", now)).toBe("2026-12-03 06:44 UTC, just now");
    expect(whenText("2026-12-03T06:41:00Z", now)).toBe("2026-12-03 06:41 UTC, 4 min ago");
    expect(whenText("2026-12-02T06:45:00Z", now)).toBe("2026-12-02 06:45 UTC, 24 h ago");
    expect(whenText("2026-12-01T06:46:00Z", now)).toBe("2026-12-01 06:46 UTC, 48 h ago");
    expect(whenText("2026-12-01T06:45:00Z", now)).toBe("2026-12-01, 2 days ago");
    expect(whenText("2026-11-30T06:45:00Z", now)).toBe("2026-11-30, 3 days ago");
    expect(whenText("2026-12-06T06:45:00Z", now)).toBe("2026-12-06, in 3 days");
    expect(whenText("2026-12-03T08:45:00+01:00", now)).toBe("2026-12-03 07:45 UTC, in 1 h");
  });

  // Set DE: "paid: 2026-12-05, 3 days ago · shipped: 2026-12-05, 2 days ago" (hours rounded apart).
  it("a date shown alone counts whole days to today's date, so one date always reads as one age", () => {
    const late = Date.parse("2026-12-07T23:45:00Z");
    expect(whenText("2026-12-05T00:10:00Z", late)).toBe("2026-12-05, 2 days ago");
    expect(whenText("2026-12-05T21:00:00Z", late)).toBe("2026-12-05, 2 days ago");
    expect(whenText("2026-12-10T23:00:00Z", late)).toBe("2026-12-10, in 3 days");
    // Review 68: just under two days away rounded to 48 h and read "1 days ago".
    const end = Date.parse("2026-12-08T23:59:50Z");
    expect(whenText("2026-12-07T00:00:10Z", end)).toBe("2026-12-07 00:00 UTC, 48 h ago");
    expect(whenText("2026-12-06T23:59:50Z", end)).toBe("2026-12-06, 2 days ago");
  });

  it("leaves what is no date-time with a zone as it is", () => {
    for (const v of ["2026-12-03", "2026-12-03T06:45", "tkt_2", "2026-13-45T99:00:00Z"]) {
      expect(isTimestamp(v)).toBe(false);
      expect(whenText(v, now)).toBe(v);
    }
  });

  it("knows the keys that say when a record was created, in any casing", () => {
    for (const k of ["created_at", "createdAt", "created", "placed_at", "date_created", "inserted_at"])
      expect(isCreationKey(k)).toBe(true);
    for (const k of ["updated_at", "expires_at", "created_by", "creator"])
      expect(isCreationKey(k)).toBe(false);
  });
});
