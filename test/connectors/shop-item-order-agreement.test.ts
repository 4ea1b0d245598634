import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idem } from "../gateway/gateway-world";
import { createMcpWorld, type McpWorld, sc, text } from "../mcp/mcp-world";

type Item = { id: string; status?: string; exchangeable?: boolean; returnable?: boolean; why_not?: string };
type Path = { eligible: boolean; reason?: string };
type Read = { items: Item[]; after_sales: Record<string, Path>; items_why_not?: string };

/** The items table and the "What may be done now" list of an order page, as an agent reads them. */
function readOrderPage(markdown: string): Read {
  const lines = markdown.split("\n");
  const head = lines.findIndex((l) => l.startsWith("| id | product_id |"));
  const columns = (lines[head] ?? "").split("|").map((c) => c.trim());
  const items: Item[] = [];
  for (const l of lines.slice(head + 2)) {
    if (!l.startsWith("|")) break;
    const cells = l.split("|").map((c) => c.trim());
    const cell = (name: string) => cells[columns.indexOf(name)];
    const flag = (name: string) => (cell(name) === undefined ? undefined : cell(name) === "true");
    items.push({
      id: (cell("id") ?? "").replaceAll("`", ""),
      status: cell("status"),
      exchangeable: flag("exchangeable"),
      returnable: flag("returnable"),
      why_not: cell("why_not") === "—" ? undefined : cell("why_not") || undefined,
    });
  }
  const items_why_not = /^- \*\*items why not:\*\* (.*)$/m.exec(markdown)?.[1];
  const after_sales: Record<string, Path> = {};
  for (const m of markdown.matchAll(
    /^- \*\*(refund only|return refund|exchange|shipping refund):\*\* (yes|no)\b/gm,
  ))
    after_sales[(m[1] ?? "").replace(" ", "_")] = { eligible: m[2] === "yes" };
  return { items, after_sales, ...(items_why_not ? { items_why_not } : {}) };
}

/**
 * An item's after-sales facts and its order's come from one source: an item never says it can be
 * exchanged (or returned) under an order that says nothing can, and an order that says something
 * can names at least one item that can. Read the way an agent reads them: over MCP, from the
 * order page and from after_sales's order choice, before and after an exchange and a return.
 */
describe("item-level and order-level after-sales facts agree (real legacy, real MCP client)", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
    await w.legacy.reset();
  });
  afterAll(async () => w?.close());

  async function done(orderId: string, patch: Record<string, unknown>) {
    const s = await w.gw.startAction(w.agent.alice, { capability: "after_sales", entity_id: orderId, patch });
    expect(s.outcome, JSON.stringify(s.validation_errors)).toBe("applied");
    await w.gw.decideApproval(w.person.alice, {
      action_id: s.action_id as string,
      version: s.version as number,
      decision: "approve",
    });
  }

  /**
   * Issue 23: every false flag says why — its line's own reason, or the order's said once for all
   * lines (naming the flags it closes), never the order's reason repeated on a line.
   */
  function reasoned(where: string, read: Pick<Read, "items" | "items_why_not">) {
    const once = read.items_why_not;
    // Each reason names the flags it explains: a lamp not shipped yet said only "product not
    // exchangeable" on its line, which read as why it could not be returned (issue 23, played).
    const flags = (r: string | undefined) =>
      (r ?? "").split("; ").flatMap((x) => (x.includes(": ") ? (x.split(": ")[0] ?? "").split(", ") : []));
    for (const i of read.items) {
      if (i.why_not) expect(flags(i.why_not).length, `${where} ${i.id}: ${i.why_not}`).toBeGreaterThan(0);
      for (const flag of flags(i.why_not))
        expect(i[flag as "returnable"], `${where} ${i.id}.${flag}`).toBe(false);
      for (const flag of ["returnable", "exchangeable"] as const) {
        if (i[flag] !== false) continue;
        expect(
          flags(i.why_not).includes(flag) || flags(once).includes(flag),
          `${where} ${i.id}.${flag}`,
        ).toBe(true);
      }
    }
    const orderWords = once?.replace(/^.*: /, "");
    for (const i of read.items)
      if (orderWords) expect(i.why_not?.replace(/^.*: /, ""), `${where} ${i.id}`).not.toBe(orderWords);
    for (const i of read.items)
      if (i.status === "exchanged" || i.status === "returned")
        expect(i.why_not, `${where} ${i.id}`).toBe(`returnable, exchangeable: already ${i.status}`);
  }

  function agree(where: string, items: Item[], paths: Record<string, Path>) {
    for (const [flag, kind] of [
      ["exchangeable", "exchange"],
      ["returnable", "return_refund"],
    ] as const) {
      const itemSays = items.some((i) => i[flag] === true);
      expect(itemSays, `${where}: items ${flag} vs order ${kind} ${JSON.stringify(paths[kind])}`).toBe(
        paths[kind]?.eligible === true,
      );
      // Every item states it, yes or no: silence would leave the product's own flag to be read.
      for (const i of items) expect(typeof i[flag], `${where} ${i.id}.${flag}`).toBe("boolean");
    }
    for (const i of items)
      if (i.status === "exchanged" || i.status === "returned")
        expect({ id: i.id, exchangeable: i.exchangeable, returnable: i.returnable }).toEqual({
          id: i.id,
          exchangeable: false,
          returnable: false,
        });
  }

  async function checkAll(label: string) {
    const client = await w.connect(w.keys.alice);
    const orders = [
      "ord_pending",
      "ord_paid",
      "ord_transit",
      "ord_delivered",
      "ord_exchange",
      "ord_shipdiff",
      "ord_delivered_old",
      "ord_cancelled",
    ];
    for (const id of orders) {
      const page = await client.callTool({ name: "navigate", arguments: { uri: `shop://order/${id}` } });
      const view = readOrderPage(text(page));
      agree(`${label} ${id} page`, view.items, view.after_sales);
      reasoned(`${label} ${id} page`, view);
      // The order's reason is said once above the table, on none of its rows.
      const orderWords = view.items_why_not?.replace(/^.*: /, "");
      const rows = text(page)
        .split("\n")
        .filter((l) => l.startsWith("| `"));
      if (orderWords) for (const row of rows) expect(row, `${label} ${id}`).not.toContain(orderWords);
      // The text an agent reads: an exchanged line's row never carries a "true".
      for (const row of text(page)
        .split("\n")
        .filter((l) => /\| already (exchanged|returned) \|/.test(l)))
        expect(row, `${label} ${id}`).not.toContain("true");
      // get_context's entity view holds the same reasons.
      const context = sc(
        await client.callTool({ name: "get_context", arguments: { entity: "order", entity_id: id } }),
      ).view as Read & { after_sales: Record<string, Path> };
      agree(`${label} ${id} get_context`, context.items, context.after_sales);
      reasoned(`${label} ${id} get_context`, context);
      expect(context.items_why_not, `${label} ${id}`).toBe(view.items_why_not);
    }
    return client;
  }

  it("on the demo's orders as seeded", async () => {
    await checkAll("seeded");
  });

  it("after the tee is exchanged and a mug returned", async () => {
    await done("ord_exchange", {
      kind: "exchange",
      reason: "too small",
      item_id: "ord_exchange_item_1",
      replacement_product_id: "prod_tee_l",
    });
    await done("ord_delivered", {
      kind: "return_refund",
      reason: "not needed",
      item_ids: ["ord_delivered_item_2"],
    });
    const client = await checkAll("after");
    const page = await client.callTool({ name: "navigate", arguments: { uri: "shop://order/ord_exchange" } });
    const tee = readOrderPage(text(page)).items.find((i) => i.id === "ord_exchange_item_1");
    expect(tee).toMatchObject({
      why_not: "returnable, exchangeable: already exchanged",
      exchangeable: false,
      returnable: false,
    });
    // The order choice after_sales shows holds the same facts as the page.
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_exchange", idempotency_key: idem() },
      }),
    );
    const order = started.options as {
      order: { items: Item[]; items_why_not?: string };
      after_sales: Array<Path & { kind: string }>;
    };
    agree(
      "after_sales options",
      order.order.items,
      Object.fromEntries(order.after_sales.map((p) => [p.kind, p])),
    );
    reasoned("after_sales options", order.order);
    // In transit: the order's reason once in the options, the product's own on its line.
    const transit = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", entity_id: "ord_transit", idempotency_key: idem() },
      }),
    ).options as { order: { items: Item[]; items_why_not?: string } };
    reasoned("after_sales options ord_transit", transit.order);
    expect(transit.order.items_why_not).toBe("returnable: not delivered yet");
  });
});
