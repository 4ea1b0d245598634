// The script face's section of `npm run bench`: the same work done as direct tool calls and as
// one run_script, side by side — agent calls, wall time, and the tokens the model sends (tool
// arguments, the script's code) and reads (the text blocks it gets back).
import type { Client } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { runScript } from "../server/script/run-script";
import { DEFAULT_SCRIPT_LIMITS } from "../server/script/script-limits";
import type { McpWorld } from "../test/mcp/mcp-world";

const tokens = (text: string) => encode(text).length;
const textOf = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? "").join("\n");

interface Cost {
  agentCalls: number;
  gatewayCalls: number;
  wallMs: number;
  sent: number;
  read: number;
  answer: unknown;
}

/** One way of doing the work: the tool calls it makes, in order (each may depend on the last). */
type Work = (call: (name: string, args: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;

async function measure(client: Client, work: Work, runs = 5): Promise<Cost> {
  const walls: number[] = [];
  let last: Cost | undefined;
  for (let i = 0; i < runs + 1; i++) {
    let agentCalls = 0;
    let gatewayCalls = 0;
    let sent = 0;
    let read = 0;
    const started = performance.now();
    const answer = await work(async (name, args) => {
      agentCalls++;
      sent += tokens(JSON.stringify({ name, arguments: args }));
      const result = await client.callTool({ name, arguments: args });
      read += tokens(textOf(result));
      const structured = result.structuredContent as { calls?: unknown[] } | undefined;
      gatewayCalls += name === "run_script" ? (structured?.calls?.length ?? 0) : 1;
      return result.structuredContent;
    });
    const wall = performance.now() - started;
    // The first run warms caches (the compiled engine, the capability index): not counted.
    if (i > 0) walls.push(wall);
    last = { agentCalls, gatewayCalls, wallMs: 0, sent, read, answer };
  }
  walls.sort((a, b) => a - b);
  return { ...(last as Cost), wallMs: walls[Math.floor(walls.length / 2)] ?? 0 };
}

const ORDERS_SCRIPT = `
let uri = "shop://orders?status=delivered&per_page=1", n = 1, total = 0;
while (uri) {
  const page = await navigate(uri);
  for (const l of page.links)
    if (l.startsWith("shop://order/") && !l.slice(13).includes("/"))
      total += (await getContext({ entity: "order", entity_id: l.slice(13) })).view.totals.total;
  n += 1;
  uri = page.links.find((l) => l.startsWith("shop://orders?") && l.split("?")[1].split("&").includes("page=" + n));
}
return total;`;

/** What an agent reading structuredContent does without a script: the same pages and reads. */
const ordersDirect: Work = async (call) => {
  let uri: string | undefined = "shop://orders?status=delivered&per_page=1";
  let n = 1;
  let total = 0;
  while (uri) {
    const page = (await call("navigate", { uri })) as { links: string[] };
    for (const l of page.links)
      if (l.startsWith("shop://order/") && !l.slice(13).includes("/")) {
        const order = (await call("get_context", { entity: "order", entity_id: l.slice(13) })) as {
          view: { totals: { total: number } };
        };
        total += order.view.totals.total;
      }
    n += 1;
    uri = page.links.find(
      (l) => l.startsWith("shop://orders?") && l.split("?")[1]?.split("&").includes(`page=${n}`),
    );
  }
  return total;
};

export async function benchScriptFace(w: McpWorld): Promise<void> {
  const client = await w.connect(w.keys.alice, { faces: "all" });
  const ids = ["ord_paid", "ord_delivered", "ord_exchange", "ord_transit"];
  const twenty = Array.from({ length: 20 }, (_, i) => ids[i % ids.length] as string);
  const script =
    (code: string): Work =>
    (call) =>
      call("run_script", { code });

  const cases: Array<[string, Work, Work]> = [
    [
      "trivial: one navigate",
      (call) => call("navigate", { uri: "shop://orders" }),
      script(`return (await navigate("shop://orders")).title`),
    ],
    [
      "20 order reads (get_context)",
      async (call) => {
        for (const id of twenty) await call("get_context", { entity: "order", entity_id: id });
      },
      script(
        `let sum = 0; for (const id of ${JSON.stringify(twenty)}) sum += (await getContext({ entity: "order", entity_id: id })).view.totals.total; return sum`,
      ),
    ],
    ["total of delivered orders, across pages", ordersDirect, script(ORDERS_SCRIPT)],
  ];

  const widths = [42, 8, 12, 13, 9, 11, 11];
  const row = (cells: Array<string | number>) =>
    `| ${cells.map((c, i) => String(c).padEnd(widths[i] ?? 10)).join(" | ")} |`;
  const lines = [
    row([
      "script face vs direct calls (median of 5)",
      "how",
      "agent calls",
      "gateway calls",
      "wall ms",
      "tokens sent",
      "tokens read",
    ]),
    row(["---", "---", "---", "---", "---", "---", "---"]),
  ];
  // The sandbox alone: a script that calls nothing.
  const empty = await measure(client, script("return 1"), 20);
  lines.push(
    row([
      "empty script (`return 1`): sandbox cost",
      "script",
      1,
      0,
      empty.wallMs.toFixed(1),
      empty.sent,
      empty.read,
    ]),
  );
  for (const [name, direct, scripted] of cases) {
    const d = await measure(client, direct);
    const s = await measure(client, scripted);
    lines.push(row([name, "direct", d.agentCalls, d.gatewayCalls, d.wallMs.toFixed(1), d.sent, d.read]));
    lines.push(row(["", "script", s.agentCalls, s.gatewayCalls, s.wallMs.toFixed(1), s.sent, s.read]));
  }
  // The engine alone, in process: a fresh capped WebAssembly instance, runtime and context per run.
  const engineRuns = 50;
  await runScript("return 1", {}, DEFAULT_SCRIPT_LIMITS);
  const engineStarted = performance.now();
  for (let i = 0; i < engineRuns; i++) await runScript("return 1", {}, DEFAULT_SCRIPT_LIMITS);
  const engineMs = (performance.now() - engineStarted) / engineRuns;
  lines.push(row(["sandbox alone, in process (mean of 50)", "engine", 0, 0, engineMs.toFixed(1), "", ""]));
  console.log(`\n${lines.join("\n")}\n`);
  console.log(
    "tokens sent: tool name and arguments (the script's code); tokens read: the text blocks returned (o200k).\n",
  );
}
