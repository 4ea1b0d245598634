// The agent-task table of `npm run bench`: a scripted agent does the everyday tasks of issue 12
// once through Signpost's MCP tools (reading only the text blocks, as a model on a text-only
// host would; and again reading structuredContent) and once through a one-tool-per-operation
// wrapper of the legacy OpenAPI document. Per task: agent calls, tokens read, whether the legacy
// system ended where the user wanted, and money moved that no person approved.
// Run alone: `npx tsx scripts/bench-agent-tasks.ts`.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { prepareOpenApiImport } from "@/server/connectors/openapi/prepare-openapi-import";
import { saveImportedConnector } from "@/server/connectors/openapi/save-imported-connector";
import { jsonTokens } from "../test/bench/json-tokens";
import { wrapOpenApiAsTools } from "../test/bench/openapi-tool-wrapper";
import { runAgentTasks, visibleTools } from "../test/bench/run-agent-tasks";
import type { ReadMode } from "../test/bench/signpost-agent";
import { createMcpWorld, type McpWorld } from "../test/mcp/mcp-world";

const tokens = jsonTokens;

function row(cells: Array<string | number>) {
  return `| ${cells.join(" | ")} |`;
}

/** Prints the table; returns it as markdown too (docs/benchmarks.md keeps the last run's). */
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
  const scale = await atTenConnectors(w, {
    signpost: signpostDefs + total.st,
    rest: restDefs + total.rt,
  });
  const table = `${lines.join("\n")}\n\nTool definitions (o200k, model-visible name, description, input schema): Signpost default faces ${signpostDefs}, REST wrapper ${restDefs}.\n\n${scale}`;
  console.log(`\n${table}\n`);
  return table;
}

/**
 * The same tasks once eight more systems are connected (real OpenAPI documents imported into
 * the tenant, as `npx signpost connect openapi` does): the wrapper lists a tool per operation of
 * every system, Signpost's list stays the same, and the text-only agent runs the tasks again
 * with all ten connected. Their base URL is never called by these tasks.
 */
async function atTenConnectors(w: McpWorld, two: { signpost: number; rest: number }): Promise<string> {
  const require = createRequire(import.meta.url);
  const examples = dirname(require.resolve("@readme/oas-examples/package.json"));
  // Documents of whole (if small) APIs, not of one OpenAPI feature each.
  const systems = [
    "3.0/star-trek",
    "3.1/train-travel",
    "3.0/uspto",
    "3.0/petstore-expanded",
    "3.1/readme",
    "3.0/link-example",
    "3.0/callbacks",
    "3.0/security",
  ];
  let restDefs = tokens(await wrapOpenApiAsTools(await (await fetch(`${w.legacy.url}/openapi.json`)).json()));
  const imported: string[] = [];
  for (const name of systems) {
    const [version, file] = name.split("/") as [string, string];
    const text = readFileSync(join(examples, version, "json", `${file}.json`), "utf8");
    const prepared = await prepareOpenApiImport(w.db, {
      tenantId: "acme",
      text,
      id: `sys${imported.length + 1}`,
      baseUrl: "http://127.0.0.1:9",
      readRoles: ["admin", "support", "member"],
      secrets: {},
      self: { origins: ["http://localhost:3000"], ports: [3000] },
    });
    if (!prepared.ok) continue;
    await w.db.$transaction((tx) => saveImportedConnector(tx, prepared.value));
    restDefs += tokens(await wrapOpenApiAsTools(JSON.parse(text)));
    imported.push(file);
  }
  const signpostDefs = tokens(await visibleTools(w));
  const rows = await runAgentTasks(w, undefined, ["text"]);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  const signpost = signpostDefs + sum((r) => r.signpost.text.run.responseTokens);
  const rest = restDefs + sum((r) => r.rest.responseTokens);
  const right = rows.filter((r) => r.signpost.text.right).length;
  const pct = (a: number, b: number) => `${Math.round((100 * a) / b)}%`;
  return [
    row([
      "connected systems",
      "Signpost tokens (definitions + read)",
      "REST wrapper tokens",
      "Signpost / REST",
      "Signpost right",
    ]),
    row(Array(5).fill("---")),
    row(["2 (shop, helpdesk)", two.signpost, two.rest, pct(two.signpost, two.rest), ""]),
    row([
      `10 (+ ${imported.join(", ")})`,
      signpost,
      rest,
      pct(signpost, rest),
      `${right}/${rows.length} (${sum((r) => r.signpost.text.run.calls)} calls)`,
    ]),
  ].join("\n");
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
