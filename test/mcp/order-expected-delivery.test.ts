import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

type Json = Record<string, unknown>;
const DAY = 86_400_000;

/**
 * Played as Alice: "When will my headphones arrive?" The order page (ord_transit, shipped by
 * express) showed the latest scan but no date, so models opened the tracking page too, hoping for
 * one: two calls where the REST wrapper took one. The page says now when it should arrive, from
 * what the shop says (its method's quoted days from payment; the carrier gives no date), and by
 * how many days it is late; only an order on its way costs the quote's read. Real MCP client,
 * gateway and legacy service.
 */
describe("an order on its way says when it should arrive (MCP over HTTP)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const legacy = async (method: string, path: string, body?: unknown) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })
    ).json()) as Json;
  /** The date `days` after the order's payment, and how many calendar days (UTC) ago that is. */
  const expectedOf = async (orderId: string, days: number) => {
    const paid = Date.parse(String((await legacy("GET", `/v1/orders/${orderId}`)).paid_at));
    const date = new Date(paid + days * DAY).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    return { date, late: Math.round((Date.parse(today) - Date.parse(date)) / DAY) };
  };
  const lateWords = (late: number) =>
    late > 0 ? `, ${late} ${late === 1 ? "day" : "days"} late` : late === 0 ? ", due today" : "";
  /** Calls the one injected fault has left: each quote asked of the shop takes one. */
  const callsLeft = async () => {
    const res = await fetch(`${w.legacy.url}/admin/faults`, {
      headers: { "x-admin-key": w.legacy.adminKey },
    });
    return ((await res.json()) as { data: Array<{ remaining: number | null }> }).data[0]?.remaining ?? 0;
  };

  it("the headphones' page gives the expected date from the express quote, and says it is late; tracking says the same", async () => {
    const alice = await w.connect(w.keys.alice);
    const { date, late } = await expectedOf("ord_transit", 2);
    // The seed paid it three days ago (an hour in): two express days are past by now.
    expect(late).toBeGreaterThanOrEqual(0);
    const line = `about ${date}${lateWords(late)} (express: 2 days from payment, as quoted; the carrier gives no date)`;
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } }),
    );
    // One line's end, markdown's brackets escaped as every page line does.
    expect(page).toContain(`· expected delivery: ${line.replace(/[()]/g, "\\$&")}\n`);
    const tracked = await alice.callTool({
      name: "start_action",
      arguments: { capability: "track_shipment", entity_id: "ord_transit" },
    });
    expect((sc(tracked).result as Json).expected_delivery).toBe(line);
    expect(text(tracked)).toContain(`expected_delivery: ${line}`);
  });

  it("an order shipped today is not late: its date is ahead", async () => {
    const alice = await w.connect(w.keys.alice);
    await legacy("POST", "/v1/orders/ord_paid/ship");
    const { date, late } = await expectedOf("ord_paid", 5);
    expect(late).toBeLessThan(0);
    const page = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_paid" } }),
    );
    expect(page).toContain(
      `· expected delivery: about ${date} \\(standard: 5 days from payment, as quoted; the carrier gives no date\\)`,
    );
    expect(page).not.toMatch(/\d+ days? late|due today/);
  });

  it("orders not on their way say no date and cost no quote; a failed quote leaves the page without it", async () => {
    const alice = await w.connect(w.keys.alice);
    await w.legacy.injectFault({ match: "POST /v1/shipping/quotes", mode: "down", count: 10 });
    for (const id of ["ord_pending", "ord_paid", "ord_delivered", "ord_cancelled"]) {
      const page = text(await alice.callTool({ name: "navigate", arguments: { uri: `shop://order/${id}` } }));
      expect(page).toContain(`# Order ${id}`);
      expect(page).not.toContain("expected delivery");
    }
    // Not one quote asked: the fault is still there, unused.
    expect(await callsLeft()).toBe(10);
    const transit = text(
      await alice.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_transit" } }),
    );
    expect(transit).toContain("latest scan: ");
    expect(transit).not.toContain("expected delivery");
    // The one order on its way asked for its quote (and met the fault, retried as a read is).
    expect(await callsLeft()).toBeLessThan(10);
  });
});
