// `npm run bench`: what each MCP face costs an agent before any work starts (tokens of the
// tools/list result, o200k tokenizer), next to a one-tool-per-endpoint wrapper of the legacy
// OpenAPI document; how many agent calls the main flows take through each face; and what a call
// costs in time and memory, as a ratio to a direct call to the legacy system in the same run
// (this machine is shared and noisy: compare the ratios, not the milliseconds across runs).
import { randomBytes } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { wrapOpenApiAsTools } from "../test/bench/openapi-tool-wrapper";
import { createMcpWorld, type McpWorld } from "../test/mcp/mcp-world";
import { benchAgentTasks } from "./bench-agent-tasks";
import { benchScriptFace } from "./bench-script-face";

process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
// The bench measures what a call costs, not the per-key call budget.
process.env.SIGNPOST_AGENT_RATE_LIMIT ??= "0";

const tokens = (value: unknown) => encode(JSON.stringify(value)).length;

async function listTools(w: McpWorld, faces?: string) {
  const client = await w.connect(w.keys.alice, faces ? { faces } : {});
  const { tools } = await client.listTools();
  // What a host shows the model: app-only tools (visibility ["app"]) are hidden from it.
  const visible = tools.filter((t) => {
    const ui = (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui;
    return !ui?.visibility || ui.visibility.includes("model");
  });
  return { all: tools, visible };
}

function row(cells: Array<string | number>, widths: number[]) {
  return `| ${cells.map((c, i) => String(c).padEnd(widths[i] ?? 10)).join(" | ")} |`;
}

async function countFlow(
  client: Client,
  steps: Array<(last: Record<string, unknown>) => [string, Record<string, unknown>] | null>,
) {
  let calls = 0;
  let last: Record<string, unknown> = {};
  for (const step of steps) {
    const call = step(last);
    if (!call) continue;
    calls++;
    const result = await client.callTool({ name: call[0], arguments: call[1] });
    last = {
      ...((result.structuredContent as Record<string, unknown>) ?? {}),
      __text: (result.content as Array<{ text?: string }>)[0]?.text,
      __meta: result._meta,
    };
  }
  return { calls, last };
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** Runs `call` sequentially `n` times after a warm-up; latency quantiles in ms. */
async function timeCalls(n: number, call: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await call();
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return {
    p50: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    perSecond: (1000 * n) / ms.reduce((a, b) => a + b, 0),
  };
}

/** Latency of each face's common reads next to the legacy call they stand on, then heap growth. */
async function speedAndMemory(w: McpWorld) {
  const n = 200;
  const agent = await w.connect(w.keys.alice);
  const tool = (name: string, args: Record<string, unknown>) => async () => {
    const result = await agent.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 200)}`);
  };
  const legacyOrder = async () => {
    const res = await fetch(`${w.legacy.url}/v1/orders/ord_paid`, {
      headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` },
    });
    await res.arrayBuffer();
  };
  const cases: Array<[string, () => Promise<unknown>]> = [
    ["legacy GET /v1/orders/{id} (baseline, no Signpost)", legacyOrder],
    ["tools/list, all faces", () => agent.listTools()],
    ["search_capabilities", tool("search_capabilities", { query: "refund my order" })],
    ["get_context order view", tool("get_context", { entity: "order", entity_id: "ord_paid" })],
    ["navigate shop://order/{id}", tool("navigate", { uri: "shop://order/ord_paid" })],
    [
      "start_action checkout, full patch, dry_run",
      tool("start_action", {
        capability: "checkout",
        dry_run: true,
        patch: {
          items: [{ product_id: "prod_mug", quantity: 1 }],
          address_id: "Office",
          shipping_method: "standard",
          payment_type: "balance",
        },
      }),
    ],
  ];
  const results: Array<[string, Awaited<ReturnType<typeof timeCalls>>]> = [];
  for (const [name, call] of cases) results.push([name, await timeCalls(n, call)]);
  const base = results[0]?.[1].p50 ?? 1;
  const widths = [50, 8, 8, 8, 14];
  console.log(
    `\n${[
      row([`latency, ${n} sequential calls each (ms)`, "p50", "p95", "calls/s", "p50 × legacy"], widths),
      row(["---", "---", "---", "---", "---"], widths),
      ...results.map(([name, r]) =>
        row(
          [name, r.p50.toFixed(1), r.p95.toFixed(1), r.perSecond.toFixed(0), (r.p50 / base).toFixed(1)],
          widths,
        ),
      ),
    ].join("\n")}\n`,
  );

  // Memory: heap after a collection, before and after many more calls of the heaviest read.
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const heavy = tool("get_context", { entity: "order", entity_id: "ord_paid" });
  gc();
  const before = process.memoryUsage();
  const calls = 1000;
  for (let i = 0; i < calls; i++) await heavy();
  gc();
  const after = process.memoryUsage();
  const mw = [50, 10, 10, 14];
  console.log(
    `${[
      row([`memory (MB; ${calls} more get_context calls)`, "before", "after", "KB per call"], mw),
      row(["---", "---", "---", "---"], mw),
      row(
        [
          "heap used, after GC",
          mb(before.heapUsed),
          mb(after.heapUsed),
          ((after.heapUsed - before.heapUsed) / 1024 / calls).toFixed(2),
        ],
        mw,
      ),
      row(
        ["resident set", mb(before.rss), mb(after.rss), ((after.rss - before.rss) / 1024 / calls).toFixed(2)],
        mw,
      ),
    ].join(
      "\n",
    )}${(globalThis as { gc?: unknown }).gc ? "" : "\n(no --expose-gc: heap figures include garbage)"}\n`,
  );
}

async function main() {
  const w = await createMcpWorld("sqlite");
  try {
    const doc = await (await fetch(`${w.legacy.url}/openapi.json`)).json();
    const wrapped = await wrapOpenApiAsTools(doc);
    const actions = await listTools(w, "actions");
    const browse = await listTools(w, "browse");
    const script = await listTools(w, "script");
    const defaults = await listTools(w);
    const all = await listTools(w, "all");

    const widths = [44, 7, 16];
    const lines = [
      row(["tools/list (o200k tokens)", "tools", "tokens"], widths),
      row(["---", "---", "---"], widths),
      row(["actions face (model-visible)", actions.visible.length, tokens(actions.visible)], widths),
      row(["actions face (incl. app-only approval_status)", actions.all.length, tokens(actions.all)], widths),
      row(["browse face", browse.visible.length, tokens(browse.visible)], widths),
      row(["script face", script.visible.length, tokens(script.visible)], widths),
      row(
        ["default faces: actions, browse (model-visible)", defaults.visible.length, tokens(defaults.visible)],
        widths,
      ),
      row(["all faces (model-visible)", all.visible.length, tokens(all.visible)], widths),
      row(["all faces (incl. app-only)", all.all.length, tokens(all.all)], widths),
      row(["legacy OpenAPI, one tool per endpoint", wrapped.length, tokens(wrapped)], widths),
    ];
    console.log(`\n${lines.join("\n")}\n`);
    for (const t of all.all) console.log(`  ${t.name.padEnd(22)} ${String(tokens(t)).padStart(5)} tokens`);

    // Agent calls per flow, measured by running the flows (approval by the person is not counted).
    const alice = await w.connect(w.keys.alice);
    const approve = async (actionId: string) => {
      const ctx = await w.gw.getContext(w.agent.alice, { action_id: actionId });
      await w.gw.decideApproval(w.person.alice, {
        action_id: actionId,
        version: ctx.version as number,
        decision: "approve",
      });
    };
    const key = () => `bench-${randomBytes(6).toString("hex")}`;

    const checkoutStart = await countFlow(alice, [
      () => [
        "search_capabilities",
        { query: "two of these mugs, ship to the office with standard shipping, pay from my balance" },
      ],
      () => [
        "start_action",
        {
          capability: "checkout",
          // The shipping method's price is the user's choice: named, never defaulted.
          patch: {
            items: [{ product_id: "prod_mug", quantity: 2 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      ],
    ]);
    const checkoutId = String(checkoutStart.last.action_id);
    await approve(checkoutId);
    const checkoutEnd = await countFlow(alice, [
      () => ["confirm_action", { action_id: checkoutId, idempotency_key: key() }],
      () => ["verify_action", { action_id: checkoutId }],
    ]);

    const refundStart = await countFlow(alice, [
      () => [
        "start_action",
        { capability: "after_sales", entity_id: "ord_paid", patch: { reason: "changed my mind" } },
      ],
    ]);
    const refundId = String(refundStart.last.action_id);
    await approve(refundId);
    const refundEnd = await countFlow(alice, [
      () => ["confirm_action", { action_id: refundId, idempotency_key: key() }],
      () => ["verify_action", { action_id: refundId }],
    ]);

    const browser = await w.connect(w.keys.alice, { faces: "browse" });
    const browseStart = await countFlow(browser, [
      () => ["search", { query: "buy" }],
      () => ["navigate", { uri: "shop://checkout" }],
      () => [
        "submit",
        {
          uri: "shop://checkout",
          fields: {
            items: [{ product_id: "prod_mug", quantity: 1 }],
            address_id: "Office",
            shipping_method: "standard",
            payment_type: "balance",
          },
        },
      ],
    ]);
    const browseId = /actions\\?:\/\/([A-Za-z0-9_-]+)/.exec(String(browseStart.last.__text ?? ""))?.[1] ?? "";
    await approve(browseId);
    const browseEnd = await countFlow(browser, [
      () => ["submit", { uri: `actions://${browseId}/confirm`, fields: { idempotency_key: key() } }],
      () => ["navigate", { uri: `actions://${browseId}/verify` }],
    ]);

    const flows = [
      [
        "checkout, action face (search → start → | approve | → confirm → verify)",
        checkoutStart.calls + checkoutEnd.calls,
        String(checkoutEnd.last.outcome),
      ],
      [
        "refund-only, action face (start → | approve | → confirm → verify)",
        refundStart.calls + refundEnd.calls,
        String(refundEnd.last.outcome),
      ],
      [
        "checkout, browse face (search → navigate → submit → | approve | → submit → navigate)",
        browseStart.calls + browseEnd.calls,
        String(browseEnd.last.outcome),
      ],
    ];
    const fw = [84, 11, 10];
    console.log(
      `\n${[row(["flow", "agent calls", "final"], fw), row(["---", "---", "---"], fw), ...flows.map((f) => row(f, fw))].join("\n")}\n`,
    );
    await benchAgentTasks(w);
    await benchScriptFace(w);
    await speedAndMemory(w);
  } finally {
    await w.close();
  }
}

await main();
process.exit(0);
