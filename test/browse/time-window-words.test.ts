import { describe, expect, it } from "vitest";
import type { BrowsePage } from "@/server/browse/render-page";
import { timeWindowRows } from "@/server/browse/time-window-rows";
import { boundsText, timeWindow } from "@/server/browse/time-window-words";
import { withExactTimes } from "@/server/connectors/sdk/exact-times";
import { whenText } from "@/server/connectors/sdk/when-text";

/** Wednesday 2026-12-09 10:30:45 UTC. */
const NOW = Date.parse("2026-12-09T10:30:45Z");
const at = (iso: string) => Date.parse(iso);

/**
 * The words of a time window, read by a small grammar (issue 23: "opened in the last 3 days"
 * was searched as text). Bounds are whole minutes in UTC, as the rows' cells show times.
 */
describe("time-window words", () => {
  it("reads rolling windows, calendar windows and 'older than'", () => {
    expect(timeWindow("tickets opened in the last 3 days", NOW)).toMatchObject({
      since: at("2026-12-06T10:30:00Z"),
      phrase: "in the last 3 days",
      event: "opened",
    });
    expect(timeWindow("orders from the past week", NOW)?.since).toBe(at("2026-12-02T10:30:00Z"));
    expect(timeWindow("last 24 hours", NOW)?.since).toBe(at("2026-12-08T10:30:00Z"));
    expect(timeWindow("tickets today", NOW)?.since).toBe(at("2026-12-09T00:00:00Z"));
    expect(timeWindow("since yesterday", NOW)).toMatchObject({ since: at("2026-12-08T00:00:00Z") });
    expect(timeWindow("since yesterday", NOW)?.before).toBeUndefined();
    expect(timeWindow("yesterday", NOW)).toMatchObject({
      since: at("2026-12-08T00:00:00Z"),
      before: at("2026-12-09T00:00:00Z"),
    });
    expect(timeWindow("created this week", NOW)?.since).toBe(at("2026-12-07T00:00:00Z"));
    expect(timeWindow("this month", NOW)?.since).toBe(at("2026-12-01T00:00:00Z"));
    expect(timeWindow("tickets older than 2 weeks", NOW)?.before).toBe(at("2026-11-25T10:30:00Z"));
    expect(timeWindow("more than a month ago", NOW)?.before).toBe(at("2026-11-09T10:30:00Z"));
  });

  it("a number or unit alone, or 'over' an amount, sets no window", () => {
    for (const q of [
      "3 days",
      "tickets about the last order",
      "over 30 dollars",
      "weekly report",
      "over 3 days",
    ])
      expect(timeWindow(q, NOW)).toBeNull();
  });

  it("says its bounds to the minute in UTC", () => {
    const w = timeWindow("yesterday", NOW);
    expect(w && boundsText(w)).toBe("from 2026-12-08 00:00 UTC to before 2026-12-09 00:00 UTC");
  });

  it("under a window, every time is shown to the minute; elsewhere a far one is its day", () => {
    const old = "2026-11-28T06:42:10Z";
    expect(whenText(old, NOW)).toBe("2026-11-28, 11 days ago");
    expect(withExactTimes(true, () => whenText(old, NOW))).toBe("2026-11-28 06:42 UTC, 11 days ago");
  });
});

function listing(rows: string[][], total: number, uri = "x://things"): BrowsePage {
  const table = [
    "| id | name | created_at |",
    "| --- | --- | --- |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
  return {
    uri,
    title: "Things",
    outcome: "applied",
    markdown: `# Things\n\n${table}\n\nPage 1 · ${total} in all\n`,
    links: [],
    rows: rows.length,
    total,
  };
}

describe("time-window rows", () => {
  const window = timeWindow("things created in the last 3 days", NOW);
  if (!window) throw new Error("no window");

  it("a cell showing only the bound's day is kept and said undecided; other days are decided", () => {
    const page = listing(
      [
        ["a", "A", "2026-12-06, 3 days ago"],
        ["b", "B", "2026-12-07, 2 days ago"],
        ["c", "C", "2026-12-05, 4 days ago"],
      ],
      3,
    );
    const { page: cut, said } = timeWindowRows(page, page, window, "created_at", undefined);
    expect(cut.markdown).toContain("| a |");
    expect(cut.markdown).toContain("| b |");
    expect(cut.markdown).not.toContain("| c |");
    expect(said).toContain("2 rows; 1 left out. 1 of them shows only a day holding the bound");
  });

  it("on one page of a longer listing it says the other pages were not filtered, and how to narrow", () => {
    const page = listing([["a", "A", "2026-12-08 09:00 UTC, 26 h ago"]], 80);
    const route = {
      filters: { status: ["open", "closed"], sort: ["newest", "oldest"] },
    } as unknown as Parameters<typeof timeWindowRows>[4];
    const { said } = timeWindowRows(page, page, window, "created_at", route);
    expect(said).toContain("this page's 1 rows of 80 read");
    expect(said).toContain("could not be applied to the rows on other pages");
    expect(said).toContain("`sort=newest`");
    expect(said).toContain("`?status=`");
  });

  it("a listing with no time of creation says the window was not applied", () => {
    const page = listing([["a", "A", "x"]], 1);
    const { said, page: same } = timeWindowRows(page, page, window, null, undefined);
    expect(said).toContain("not applied (this listing shows no time the records were created)");
    expect(same).toBe(page);
  });
});
