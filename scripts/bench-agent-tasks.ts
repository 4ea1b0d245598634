// The agent-task table of `npm run bench`: a scripted agent does the everyday tasks of issue 12
// once through Signpost's MCP tools (reading only the text blocks, as a model on a text-only
// host would; and again reading structuredContent) and once through a one-tool-per-operation
// wrapper of the legacy OpenAPI document. Per task: agent calls, tokens read, whether the legacy
// system ended where the user wanted, and money moved that no person approved.
// Run alone: `npx tsx scripts/bench-agent-tasks.ts`.
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { wrapOpenApiAsTools } from "../test/bench/openapi-tool-wrapper";
import { runAgentTasks, visibleTools } from "../test/bench/run-agent-tasks";
import type { ReadMode } from "../test/bench/signpost-agent";
import { createMcpWorld, type McpWorld } from "../test/mcp/mcp-world";

const tokens = (value: unknown) => encode(JSON.stringify(value)).length;

function row(cells: Array<string | number>) {
  return `| ${cells.join(" | ")} |`;
}

/** Prints the table; returns it as markdown too (the README keeps the last run's). */
export async function benchAgentTasks(w: McpWorld): Promise<string> {
  const doc = await (await fetch(`${w.legacy.url}/openapi.json`)).json();
  const restDefs = tokens(await wrapOpenApiAsTools(doc));
  const signpostDefs = tokens(await visibleTools(w));
  const rows = await runAgentTasks(w);
  const ok = (b: boolean) => (b ? "yes" : "**no**");
  const lines = [
    row([
      "task",
      "Signpost calls",
      "Signpost tokens read",
      "right",
      "REST calls",
      "REST tokens read",
      "right",
      "REST unapproved money moves",
      "Signpost, structuredContent reader: calls / tokens / right",
    ]),
    row(Array(9).fill("---")),
  ];
  const total = { sc: 0, st: 0, rc: 0, rt: 0, jc: 0, jt: 0 };
  for (const r of rows) {
    const t = r.signpost.text;
    const j = r.signpost.structured;
    total.sc += t.run.calls;
    total.st += t.run.responseTokens;
    total.rc += r.rest.calls;
    total.rt += r.rest.responseTokens;
    total.jc += j.run.calls;
    total.jt += j.run.responseTokens;
    lines.push(
      row([
        r.task.title,
        t.run.calls,
        t.run.responseTokens,
        `${ok(t.right)}${t.right ? "" : ` (${t.run.stop})`}`,
        r.rest.calls,
        r.rest.responseTokens,
        ok(r.rest.right),
        r.rest.unapproved.length ? r.rest.unapproved.join(", ") : "none",
        `${j.run.calls} / ${j.run.responseTokens} / ${ok(j.right)}`,
      ]),
    );
  }
  lines.push(
    row([
      "**total**",
      total.sc,
      total.st,
      `${rows.filter((r) => r.signpost.text.right).length}/${rows.length}`,
      total.rc,
      total.rt,
      `${rows.filter((r) => r.rest.right).length}/${rows.length}`,
      `${rows.reduce((n, r) => n + r.rest.unapproved.length, 0)}`,
      `${total.jc} / ${total.jt} / ${rows.filter((r) => r.signpost.structured.right).length}/${rows.length}`,
    ]),
    row([
      "**with tool definitions** (tools/list once)",
      "",
      signpostDefs + total.st,
      "",
      "",
      restDefs + total.rt,
      "",
      "",
      `${signpostDefs + total.jt}`,
    ]),
  );
  const table = `${lines.join("\n")}\n\nTool definitions (o200k, model-visible): Signpost all faces ${signpostDefs}, REST wrapper ${restDefs}.`;
  console.log(`\n${table}\n`);
  return table;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.env.SIGNPOST_MASTER_KEY ??= randomBytes(32).toString("hex");
  process.env.SIGNPOST_AGENT_RATE_LIMIT ??= "0";
  const w = await createMcpWorld("sqlite");
  try {
    await benchAgentTasks(w);
    if (process.argv.includes("--transcript")) {
      for (const r of await runAgentTasks(w))
        for (const mode of (process.argv.includes("--structured")
          ? ["structured"]
          : ["text"]) as ReadMode[]) {
          console.log(`\n##### ${r.task.id} (${mode}): ${r.signpost[mode].run.stop}`);
          for (const t of r.signpost[mode].run.transcript)
            console.log(`>>> ${t.tool} ${JSON.stringify(t.args)}\n${t.read}`);
        }
    }
  } finally {
    await w.close();
  }
  process.exit(0);
}
