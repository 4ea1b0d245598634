// `tsx scripts/answer-sizes.ts [--show]`: o200k tokens of representative Signpost answers (the text
// block a host shows the model) next to what a one-tool-per-endpoint wrapper of the legacy
// OpenAPI document answers for the same question (status + JSON body, as test/bench/rest-agent.ts
// counts it). Issue 23 asks Signpost to read at most half of the wrapper's tokens: this table
// shows where each answer stands. `--show` prints each Signpost answer too.
import { randomBytes } from "node:crypto";
import { encode } from "gpt-tokenizer/encoding/o200k_base";

process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
process.env.SIGNPOST_AGENT_RATE_LIMIT ??= "0";
// The table is the output: the server's per-call log lines would bury it.
process.env.LOG_LEVEL ??= "warn";
// Imported after the line above: the logger reads its level when it loads.
const { createMcpWorld, sc, text } = await import("../test/mcp/mcp-world");

/** Random ids and the test server's port held still, as test/mcp/answer-token-budget.test.ts does. */
const tokens = (s: string) =>
  encode(
    s
      .replace(/\b[a-z0-9]{24}\b/g, "ycbannku5mbr9fnejotmhzr2")
      .replace(/http:\/\/(?:localhost|127\.0\.0\.1):\d+/g, "http://localhost:3000"),
  ).length;

const show = process.argv.includes("--show");
const w = await createMcpWorld("sqlite");
try {
  const rest = async (...paths: string[]) => {
    let sum = 0;
    for (const path of paths) {
      const res = await fetch(`${w.legacy.url}${path}`, {
        headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
      });
      sum += encode(JSON.stringify({ status: res.status, body: await res.json() })).length;
    }
    return sum;
  };
  const alice = await w.connect(w.keys.alice);
  const sam = await w.connect(w.keys.sam);
  const call = async (client: typeof alice, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const started = await call(alice, "start_action", {
    capability: "after_sales",
    patch: { order_id: "ord_delivered" },
  });
  const ticketAction = await call(sam, "start_action", {
    capability: "assign_ticket",
    patch: { ticket_id: "tkt_9" },
  });
  const rows: Array<[string, string, number]> = [];
  const add = async (label: string, answer: unknown, wrapper: number) => {
    const t = text(answer);
    if (show) console.log(`\n===== ${label} (${tokens(t)})\n${t}`);
    rows.push([label, String(tokens(t)), wrapper]);
  };
  await add(
    "navigate shop://order/ord_paid",
    await call(alice, "navigate", { uri: "shop://order/ord_paid" }),
    await rest("/v1/orders/ord_paid"),
  );
  await add(
    "navigate shop://order/ord_delivered",
    await call(alice, "navigate", { uri: "shop://order/ord_delivered" }),
    await rest("/v1/orders/ord_delivered"),
  );
  await add(
    'search "my orders"',
    await call(alice, "search", { query: "my orders" }),
    await rest("/v1/customers?email=alice%40acme.test", "/v1/orders?customer_id=cus_alice&per_page=100"),
  );
  await add(
    "navigate shop://orders",
    await call(alice, "navigate", { uri: "shop://orders" }),
    await rest("/v1/customers?email=alice%40acme.test", "/v1/orders?customer_id=cus_alice&per_page=100"),
  );
  await add(
    "navigate helpdesk://ticket/tkt_9",
    await call(sam, "navigate", { uri: "helpdesk://ticket/tkt_9" }),
    await rest("/v1/tickets/tkt_9", "/v1/tickets/tkt_9/comments"),
  );
  await add(
    "navigate helpdesk://tickets",
    await call(sam, "navigate", { uri: "helpdesk://tickets" }),
    await rest("/v1/tickets?per_page=100"),
  );
  await add(
    "navigate shop://cart",
    await call(alice, "navigate", { uri: "shop://cart" }),
    await rest("/v1/customers?email=alice%40acme.test", "/v1/customers/cus_alice/cart"),
  );
  await add(
    "get_context after_sales (order)",
    await call(alice, "get_context", { action_id: sc(started).action_id }),
    await rest("/v1/orders/ord_delivered"),
  );
  await add(
    "get_context assign_ticket (ticket)",
    await call(sam, "get_context", { action_id: sc(ticketAction).action_id }),
    await rest("/v1/tickets/tkt_9", "/v1/teammates?team=shipping"),
  );
  await add(
    'search_capabilities "return an item"',
    await call(alice, "search_capabilities", { query: "return an item from my order" }),
    0,
  );
  await add(
    'search_capabilities "assign a ticket"',
    await call(sam, "search_capabilities", { query: "assign ticket to a teammate" }),
    0,
  );
  // The answers test/mcp/answer-token-budget.test.ts holds to a budget, counted the same way.
  const start = await call(alice, "start_action", {
    intent: "Buy everything in my cart. Ship it to my office and pay from my account balance.",
  });
  await add("start_action by words (checkout)", start, 0);
  const ready = await call(alice, "advance_action", {
    action_id: sc(start).action_id,
    version: sc(start).version,
    patch: { shipping_method: "standard", payment_type: "balance" },
  });
  await add("advance_action to the summary", ready, 0);
  await add(
    'search "login problem ticket" (none)',
    await call(sam, "search", { query: "login problem ticket" }),
    0,
  );
  await add('search "login problem" (none)', await call(sam, "search", { query: "login problem" }), 0);
  await add('search "headphones"', await call(sam, "search", { query: "headphones" }), 0);
  // Words that fit one record open its page in the search's answer (before: the search, then a navigate).
  await add(
    'search "charged twice ticket" (one record)',
    await call(sam, "search", { query: "charged twice ticket" }),
    await rest("/v1/tickets?q=charged%20twice", "/v1/tickets/tkt_1", "/v1/tickets/tkt_1/comments"),
  );
  await add(
    'search "headphones order" (one record)',
    await call(alice, "search", { query: "headphones order" }),
    await rest(
      "/v1/customers?email=alice%40acme.test",
      "/v1/orders?customer_id=cus_alice&per_page=100",
      "/v1/orders/ord_transit",
    ),
  );
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| answer${" ".repeat(width - 6)} | signpost | wrapper JSON |`);
  console.log(`|${"-".repeat(width + 2)}|----------|--------------|`);
  for (const [label, sp, rw] of rows)
    console.log(`| ${label.padEnd(width)} | ${sp.padStart(8)} | ${(rw ? String(rw) : "—").padStart(12)} |`);
} finally {
  await w.close();
}
