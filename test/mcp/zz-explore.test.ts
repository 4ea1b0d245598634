import { afterAll, beforeAll, it } from "vitest";
import { BENCH_TASKS } from "../bench/agent-tasks";
import { runOnSignpost } from "../bench/run-agent-tasks";
import { createMcpWorld, type McpWorld, text } from "./mcp-world";

let w: McpWorld;
beforeAll(async () => {
  w = await createMcpWorld("sqlite");
});
afterAll(async () => w?.close());

it("explore", async () => {
  const out: string[] = [];
  const c = await w.connect(w.keys.alice);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await c.callTool({ name, arguments: args });
    out.push(`### ${name} ${JSON.stringify(args)}\n${text(r)}\n`);
    return r;
  };
  const ex = BENCH_TASKS.find((t) => t.id === "exchange")!;
  const run = await runOnSignpost(w, ex, "text");
  out.push(`exchange run: ${run.stop}`);
  await call("navigate", { uri: "shop://order/ord_exchange" });
  await call("navigate", { uri: "shop://order/ord_paid" });
  await call("navigate", { uri: "shop://order/ord_delivered" });
  await call("navigate", { uri: "shop://orders" });
  await call("start_action", {
    capability: "checkout",
    patch: {
      items: [{ product_id: "prod_mug", quantity: 2 }],
      address_id: "Office",
      shipping_method: "standard",
      payment_type: "balance",
    },
  });
  await call("navigate", { uri: "shop://cart" });
  await call("navigate", { uri: "shop://checkout" });
  const co = BENCH_TASKS.find((t) => t.id === "checkout")!;
  const r2 = await runOnSignpost(w, co, "text");
  out.push(r2.transcript.map((t) => `--- ${t.tool} ${JSON.stringify(t.args)}\n${t.read}`).join("\n"));
  await call("navigate", { uri: "shop://orders" });
  const fs = await import("node:fs");
  fs.writeFileSync("/tmp/shop23/explore.txt", out.join("\n"));
});
