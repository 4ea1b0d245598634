import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BENCH_TASKS } from "../bench/agent-tasks";
import { readText } from "../bench/read-response";
import { legacyReader, runOnSignpost } from "../bench/run-agent-tasks";
import { createMcpWorld, type McpWorld, sc, text } from "./mcp-world";

const task = (id: string) => {
  const found = BENCH_TASKS.find((t) => t.id === id);
  if (!found) throw new Error(`no bench task ${id}`);
  return found;
};

/**
 * Hosts that show the model only the text block: the scripted agent of `npm run bench` reads
 * nothing else (no structuredContent), and still finishes, with the legacy system where the
 * user wanted it. A text block that drops choices, ids or next calls fails here.
 */
describe("an agent that reads only the text block", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it.each(["checkout", "exchange", "assign_ticket", "refund_unshipped"])("completes %s", async (id) => {
    await w.legacy.reset();
    const run = await runOnSignpost(w, task(id), "text");
    expect(
      run.stop,
      run.transcript.map((t) => `${t.tool} ${JSON.stringify(t.args)}\n${t.read}`).join("\n"),
    ).toMatch(/^finished: applied/);
    const answer = run.transcript.map((t) => t.read).join("\n");
    expect(await task(id).check(legacyReader(w), answer)).toBe(true);
  });

  it("checkout from search to verified payment: at most 4 agent calls and 1,000 tokens read", async () => {
    await w.legacy.reset();
    const run = await runOnSignpost(w, task("checkout"), "text");
    expect(run.calls).toBeLessThanOrEqual(4);
    expect(run.responseTokens).toBeLessThanOrEqual(1_000);
  });

  it("an applied change says what it was done with, by label, from the summary the person saw", async () => {
    await w.legacy.reset();
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "change_delivery_address",
          entity_id: "ord_paid",
          patch: { address_id: "Home" },
        },
      }),
    );
    const done = text(
      await client.callTool({
        name: "confirm_action",
        arguments: { action_id: started.action_id, idempotency_key: "done-with-address-1" },
      }),
    );
    // What was done comes first; "done with" adds the choices, not the decision again.
    expect(done).toMatch(/^applied: Change the delivery address: done /);
    expect(done).toMatch(/^done with: From: Office: .* · To: Home: 42 Elm Road/m);
    // Labels, not the ids and version stamps the summary also holds.
    expect(done.split("\n").find((l) => l.startsWith("done with:"))).not.toMatch(
      /addr_alice_home|T\d\d:\d\d/,
    );
  });

  it("ids are copyable as written: in backticks, never backslash-escaped", async () => {
    const client = await w.connect(w.keys.alice);
    const started = await client.callTool({ name: "start_action", arguments: { capability: "after_sales" } });
    const shown = text(started);
    expect(shown).toContain("`ord_transit`");
    expect(shown).not.toMatch(/ord\\_/);
    const reading = readText(shown);
    expect(reading.choices.map((c) => c.id)).toContain("ord_transit");
    expect(reading.next[0]).toMatchObject({
      tool: "advance_action",
      args: { action_id: sc(started).action_id },
    });
  });

  it("a dry run shows the same choices and eligibility as a real start, and leaves no action behind", async () => {
    const client = await w.connect(w.keys.alice);
    const real = text(
      await client.callTool({ name: "start_action", arguments: { capability: "after_sales" } }),
    );
    const dry = text(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", dry_run: true },
      }),
    );
    expect(dry).toMatch(/^preview: Preview only/);
    const rows = (shown: string) => shown.split("\n").filter((l) => l.startsWith("- `ord_"));
    expect(rows(dry).length).toBeGreaterThan(1);
    expect(rows(dry)).toEqual(rows(real));
    expect(dry).toMatch(/`ord_transit` .*possible: nothing now/);
    // Nothing was saved: no action to continue or cancel.
    expect(dry).not.toMatch(/action `/);
  });

  it("a choice list of ten is shown whole with its order stated; each choice that cannot be taken says why", async () => {
    const client = await w.connect(w.keys.alice);
    const started = text(
      await client.callTool({ name: "start_action", arguments: { capability: "after_sales" } }),
    );
    // The heading names the field the list fills and how it is ordered.
    expect(started).toContain("options.orders (for order_id; newest first):");
    expect(readText(started).choices.map((c) => c.id)).toEqual(
      expect.arrayContaining(["ord_delivered_old", "ord_paid"]),
    );
    expect(started).not.toContain("more: get_context");
    // Not only "nothing now": the reason, in a few words.
    expect(started).toMatch(
      /`ord_transit` .*possible: nothing now: in transit; a return is possible once delivered/,
    );
    // An unpaid order: plainly nothing to refund, and the capability that cancels it by its id
    // (the old "cancel the order instead" named none, and sent a model looking for one).
    expect(started).toMatch(
      /`ord_pending` .*possible: nothing now: not paid yet, nothing to refund; cancel_unpaid_order cancels it/,
    );
    // A kind already given narrows the list to the orders it can be done for.
    const exchange = text(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "after_sales", patch: { kind: "exchange" } },
      }),
    );
    expect(readText(exchange).choices.map((c) => c.id)).toEqual(["ord_exchange"]);
    expect(exchange).toMatch(
      /options\.orders \(for order_id; newest first; \d+ left out: not possible with the fields given\)/,
    );
  });
});

describe("options are sent in full once, then only when they change", () => {
  let w: McpWorld;
  beforeAll(async () => {
    w = await createMcpWorld("sqlite");
  });
  afterAll(async () => w?.close());

  it("start_action and get_context send every option; advance_action only the changed ones, naming the rest", async () => {
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: { capability: "checkout", patch: { items: [{ product_id: "prod_mug", quantity: 1 }] } },
      }),
    );
    const full = started.options as Record<string, unknown>;
    expect(Object.keys(full)).toEqual(expect.arrayContaining(["cart", "addresses"]));
    expect(started.inputs).toBeDefined();

    const advancedResult = await client.callTool({
      name: "advance_action",
      arguments: {
        action_id: started.action_id,
        version: started.version,
        patch: { items: [{ product_id: "prod_mug", quantity: 3 }] },
      },
    });
    const advanced = sc(advancedResult);
    // The cart and the addresses did not change with the quantity: not sent, but named.
    expect(advanced.options).not.toHaveProperty("cart");
    expect(advanced.options).not.toHaveProperty("addresses");
    expect(advanced.options_unchanged).toEqual(expect.arrayContaining(["cart", "addresses"]));
    expect(advanced.inputs).toBeUndefined();
    expect(text(advancedResult)).not.toContain("42 Elm Road");
    expect(text(advancedResult)).toMatch(/options unchanged \(as sent before\): .*addresses/);

    const reread = sc(
      await client.callTool({ name: "get_context", arguments: { action_id: started.action_id } }),
    );
    expect(reread.options).toEqual(expect.objectContaining({ cart: full.cart, addresses: full.addresses }));
  });

  it("a changed option is sent again: more mugs make another coupon eligible", async () => {
    const client = await w.connect(w.keys.alice);
    const started = sc(
      await client.callTool({
        name: "start_action",
        arguments: {
          capability: "checkout",
          patch: { items: [{ product_id: "prod_mug", quantity: 1 }], address_id: "Office" },
        },
      }),
    );
    const advanced = sc(
      await client.callTool({
        name: "advance_action",
        arguments: {
          action_id: started.action_id,
          version: started.version,
          patch: { items: [{ product_id: "prod_lamp", quantity: 1 }] },
        },
      }),
    );
    expect(advanced.options).toHaveProperty("shipping_methods");
    expect(advanced.options_unchanged).toContain("addresses");
  });
});
