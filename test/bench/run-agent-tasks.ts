import { randomBytes } from "node:crypto";
import { SERVER_KEY_PREFIX } from "@/server/engine/server-made-key";
import type { McpWorld } from "../mcp/mcp-world";
import { BENCH_TASKS, type BenchTask, type LegacyRead } from "./agent-tasks";
import { RestAgent } from "./rest-agent";
import { type AgentRun, type ReadMode, runSignpostAgent } from "./signpost-agent";

export interface TaskRow {
  task: BenchTask;
  signpost: Record<ReadMode, { run: AgentRun; right: boolean }>;
  rest: { calls: number; responseTokens: number; right: boolean; unapproved: string[] };
}

/** The model-visible part of tools/list, as the bench's tool-list table counts it. */
export async function visibleTools(w: McpWorld) {
  const client = await w.connect(w.keys.alice);
  const { tools } = await client.listTools();
  // What the model reads of each tool, as the REST wrapper's tools are counted: name,
  // description, input schema (titles, annotations and _meta are for the host).
  return tools
    .filter((t) => {
      const ui = (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui;
      return !ui?.visibility || ui.visibility.includes("model");
    })
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** One task on Signpost: the person approves through the console's own function. */
export async function runOnSignpost(w: McpWorld, task: BenchTask, mode: ReadMode): Promise<AgentRun> {
  const client = await w.connect(w.keys[task.as]);
  return runSignpostAgent(client, task.signpost, mode, {
    approve: async (actionId) => {
      const ctx = await w.gw.getContext(w.agent[task.as], { action_id: actionId });
      let decided = await w.gw.decideApproval(w.person[task.as], {
        action_id: actionId,
        version: ctx.version as number,
        decision: "approve",
      });
      // Some approvals belong to an admin (e.g. a cross-team assignment).
      if (decided.outcome !== "applied")
        decided = await w.gw.decideApproval(w.person.adam, {
          action_id: actionId,
          version: ctx.version as number,
          decision: "approve",
        });
      // What the person's screen shows: their approval carried the action out.
      return decided.result?.outcome;
    },
    idempotencyKey: () => `bench-${randomBytes(6).toString("hex")}`,
  });
}

export function legacyReader(w: McpWorld): LegacyRead {
  return async (path) =>
    (await (
      await fetch(`${w.legacy.url}${path}`, { headers: { authorization: `Bearer ${w.legacy.apiKeys.acme}` } })
    ).json()) as Record<string, unknown>;
}

/**
 * Each run starts in a new world: the legacy store as seeded, and none of the requests an earlier
 * run made within the server's key window (server-made-key.ts), which would answer the same words
 * "already made" about a change the reset undid.
 */
async function fresh(w: McpWorld, task: BenchTask) {
  await w.legacy.reset();
  await w.db.action.updateMany({
    where: { startKey: { startsWith: SERVER_KEY_PREFIX } },
    data: { startKey: null },
  });
  if (task.fault) await w.legacy.injectFault(task.fault);
}

export async function runAgentTasks(
  w: McpWorld,
  tasks = BENCH_TASKS,
  modes: ReadMode[] = ["text", "structured"],
): Promise<TaskRow[]> {
  const doc = (await (await fetch(`${w.legacy.url}/openapi.json`)).json()) as never;
  const read = legacyReader(w);
  const rows: TaskRow[] = [];
  for (const task of tasks) {
    const signpost = {} as TaskRow["signpost"];
    for (const mode of modes) {
      await fresh(w, task);
      const run = await runOnSignpost(w, task, mode);
      const answer = run.transcript.map((t) => t.read).join("\n");
      signpost[mode] = { run, right: await task.check(read, answer).catch(() => false) };
    }
    await fresh(w, task);
    const agent = new RestAgent(doc, w.legacy.url, w.legacy.apiKeys.acme);
    let restAnswer = "";
    const original = agent.call.bind(agent);
    agent.call = async (tool, args, timeoutMs) => {
      const result = await original(tool, args, timeoutMs);
      restAnswer += `${JSON.stringify(result.body)}\n`;
      return result;
    };
    await task.rest(agent);
    rows.push({
      task,
      signpost,
      rest: {
        calls: agent.calls,
        responseTokens: agent.responseTokens,
        right: await task.check(read, restAnswer).catch(() => false),
        unapproved: agent.unapproved,
      },
    });
  }
  await w.legacy.reset();
  return rows;
}
