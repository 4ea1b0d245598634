import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, text } from "../../mcp/mcp-world";

/** Ids of the ticket rows in a listing, in the order shown. */
const rowIds = (markdown: string) => [...markdown.matchAll(/^\| `(tkt_\w+)` \|/gm)].map((m) => m[1]);

/**
 * The ticket listing states its order and takes the order a task needs: round 3's model, asked
 * for "the oldest open ticket", read "most recently updated first" and re-read every ticket.
 */
describe("helpdesk://tickets order", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("?sort=oldest and ?sort=newest order by creation and say so; the default says how to ask for them", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const open = async (uri: string) => text(await sam.callTool({ name: "navigate", arguments: { uri } }));
    const byDefault = await open("helpdesk://tickets");
    expect(byDefault).toContain(
      "Most recently updated first (?sort=oldest or ?sort=newest orders by created_at).",
    );
    const oldest = await open("helpdesk://tickets?status=open&sort=oldest");
    expect(oldest).toContain("Oldest first, by created_at.");
    // Each creation time with how long ago (a model does not know "today"): to the minute in UTC
    // within two days, the day beyond (a day alone sorts before the same day's minutes: older).
    const created = (markdown: string) =>
      [...markdown.matchAll(/\| (\d{4}-\d\d-\d\d(?: \d\d:\d\d UTC)?), [\w ]+ \|$/gm)].map((m) => m[1] ?? "");
    const times = created(oldest);
    expect(times.length).toBeGreaterThan(1);
    expect([...times].sort()).toEqual(times);
    const newest = await open("helpdesk://tickets?status=open&sort=newest");
    expect(newest).toContain("Newest first, by created_at.");
    expect(created(newest)).toEqual([...times].sort().reverse());
    expect(new Set(rowIds(newest))).toEqual(new Set(rowIds(oldest)));
    // A sort the listing does not know is refused naming the ones it does.
    expect(await open("helpdesk://tickets?sort=age")).toMatch(/oldest/);
  });

  it("a search that opens a listing applies the filter values its words name, one per filter", async () => {
    await w.legacy.reset();
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const search = async (query: string) =>
      text(await sam.callTool({ name: "search", arguments: { query } }));
    const oldestOpen = await search("oldest open tickets");
    expect(oldestOpen).toMatch(/^## \[Tickets\]\(helpdesk:\/\/tickets\?[^)]*\) \(opened here\)$/m);
    const heading = /^## \[Tickets\]\(([^)]*)\)/m.exec(oldestOpen)?.[1] ?? "";
    expect(new URL(heading.replace("helpdesk://", "http://x/")).searchParams.get("status")).toBe("open");
    expect(new URL(heading.replace("helpdesk://", "http://x/")).searchParams.get("sort")).toBe("oldest");
    expect(oldestOpen).toContain("Oldest first, by created_at.");
    expect(oldestOpen).not.toMatch(/\| (pending|resolved|closed) \|/);
    // Two values of one filter: neither is applied.
    const either = await search("open or pending tickets");
    expect(either).not.toMatch(/status=/);
    // Any connector's listing that declares its filters: the shop's orders by status.
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const delivered = text(
      await alice.callTool({ name: "search", arguments: { query: "my delivered orders" } }),
    );
    expect(delivered).toMatch(/\(shop:\/\/orders\?status=delivered\) \(opened here\)/);
    expect(delivered).not.toMatch(/\| (paid|pending_payment|cancelled) \|/);
  });
});
