import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importLegacyApi } from "../connectors/openapi/import-legacy-api";
import { createMcpWorld, type McpWorld, text } from "../mcp/mcp-world";

type Json = Record<string, unknown>;

/** A time as lists show it: to the minute in UTC within two days (the day beyond), with how long ago. */
const WHEN = /\d{4}-\d\d-\d\d(?: \d\d:\d\d UTC, (just now|\d+ (min|h) ago)|, \d+ days ago)/;

/**
 * Lists say when each record was created and how long ago: round 5's model saw two paid,
 * unshipped orders as "paid … possible: refund_only" with a date it could not place (a model
 * does not know today's date) and could not tell the one placed a minute ago ("cancel the order
 * I placed today") from the old one. Action choices, hand-written listings and imported ones.
 */
describe("record lists carry each record's creation time with its age", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await importLegacyApi(w);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => w.legacy.reset());

  const post = async (path: string, body: Json) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${w.legacy.apiKeys.acme}`,
          "content-type": "application/json",
          "idempotency-key": `record-times-${path.length}-${Date.now()}`,
        },
        body: JSON.stringify(body),
      })
    ).json()) as Json;

  it("the order placed a minute ago reads as such beside an older paid one in the action's choices", async () => {
    const order = await post("/v1/orders", {
      customer_id: "cus_alice",
      items: [{ product_id: "prod_mug", quantity: 1 }],
      address_id: "addr_alice_office",
      shipping_method: "standard",
    });
    await post("/v1/payments", {
      order_id: order.id,
      payment_method_id: "pm_alice_card",
      amount: order.total,
    });
    const alice = await w.connect(w.keys.alice);
    const out = text(
      await alice.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", patch: { kind: "refund_only" } },
      }),
    );
    expect(out).toContain("newest first");
    const line = (id: string) => out.split("\n").find((l) => l.startsWith(`- \`${id}\``)) ?? "";
    expect(line(String(order.id))).toMatch(/placed: \d{4}-\d\d-\d\d \d\d:\d\d UTC, (just now|\d+ min ago)/);
    // Two days and more ago, the day says it (issue 23: the minute cost five tokens a row).
    expect(line("ord_paid")).toMatch(/placed: \d{4}-\d\d-\d\d, \d+ days ago/);
  });

  it("hand-written listings show each creation time with its age, and state their order", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const orders = text(await sam.callTool({ name: "navigate", arguments: { uri: "shop://orders" } }));
    expect(orders).toContain("Newest first.");
    expect(orders).toMatch(new RegExp(`\\| ${WHEN.source} \\|`));
    expect(orders).not.toMatch(/T\d\d:\d\d:\d\d/);
    const tickets = text(await sam.callTool({ name: "navigate", arguments: { uri: "helpdesk://tickets" } }));
    expect(tickets).toMatch(new RegExp(`\\| ${WHEN.source} \\|`));
  });

  // Set BU: "my most recently delivered order" read the delivered listing in the order the orders
  // were placed, and the model asked again with `columns=delivered_at` to be sure.
  it("orders filtered by a state show when each reached it", async () => {
    const alice = await w.connect(w.keys.alice, { faces: "browse" });
    const header = async (uri: string) =>
      text(await alice.callTool({ name: "navigate", arguments: { uri } }))
        .split("\n")
        .find((l) => l.startsWith("| id |")) ?? "";
    expect(await header("shop://orders?status=delivered")).toMatch(/\| created_at \| delivered_at \|$/);
    expect(await header("shop://orders?status=shipped")).toMatch(/\| shipped_at \|$/);
    expect(await header("shop://orders")).toMatch(/\| created_at \|$/);
  });

  it("an imported listing keeps its records' creation time among its columns, with its age", async () => {
    const sam = await w.connect(w.keys.sam, { faces: "browse" });
    const tickets = text(await sam.callTool({ name: "navigate", arguments: { uri: "legacy://v1/tickets" } }));
    const header = tickets.split("\n").find((l) => l.startsWith("| id |")) ?? "";
    expect(header).toContain("created_at");
    expect(tickets).toMatch(new RegExp(`\\| ${WHEN.source} \\|`));
  });
});
