import type { Client } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { NEWS_HEADING } from "@/mcp/agent-news";
import { type Reading, readStructured, readText } from "./read-response";

/** What the user said, as a model would map it onto a capability's inputs. */
export interface AgentTask {
  /** The user's request, in their words (sent to search_capabilities). */
  intent: string;
  /** Field values the user stated outright. */
  facts: Record<string, unknown>;
  /**
   * Fields the user described but did not name ("the order that is on its way"): the agent
   * picks the first choice the response offers whose description matches.
   */
  picks?: Record<string, RegExp>;
  /** A question rather than a change: look it up with the browse tools. */
  question?: boolean;
}

export type ReadMode = "text" | "structured";

export interface AgentRun {
  calls: number;
  /** Tokens (o200k) of everything the agent read. */
  responseTokens: number;
  /** Why the agent stopped: finished, or what it could not find in the responses. */
  stop: string;
  last: Reading;
  transcript: Array<{ tool: string; args: Record<string, unknown>; read: string }>;
}

export interface AgentHooks {
  /**
   * The person approves in the console (not an agent call); their approval carries the action
   * out. Returns the outcome their screen showed (applied, unknown, …).
   */
  approve(actionId: string): Promise<string | undefined>;
  idempotencyKey(): string;
}

const MAX_CALLS = 14;

/**
 * A scripted agent on Signpost's MCP tools. It knows only the user's words (the task) and
 * what the responses say: it starts what search suggests, fills what the action says is
 * missing from the facts or from the offered choices, asks the person when next_actions say
 * approval is needed, confirms, verifies, and stops when nothing is left to do.
 */
export async function runSignpostAgent(
  client: Client,
  task: AgentTask,
  mode: ReadMode,
  hooks: AgentHooks,
): Promise<AgentRun> {
  const run: AgentRun = {
    calls: 0,
    responseTokens: 0,
    stop: "",
    last: readText(""),
    transcript: [],
  };
  const call = async (tool: string, args: Record<string, unknown>): Promise<Reading> => {
    run.calls++;
    const result = (await client.callTool({ name: tool, arguments: args })) as {
      content?: Array<{ type: string; text?: string }>;
      structuredContent?: unknown;
    };
    const blocks = (result.content ?? []).map((c) => c.text ?? "");
    const text = blocks.join("\n");
    // News of other actions (a person's decisions since the last call) is told apart by its
    // heading, as a model does: the answer's own action and steps are the rest.
    const answer = blocks.filter((b) => !b.startsWith(NEWS_HEADING)).join("\n");
    let reading: Reading;
    if (mode === "text") reading = { ...readText(answer), read: text };
    else {
      reading = readStructured(result.structuredContent);
      // Such hosts show the text block too (browse pages live there).
      const fromText = readText(answer);
      reading.choices.push(...fromText.choices);
      if (!reading.links.length) reading.links = fromText.links;
      reading.read = `${text}\n${reading.read}`;
    }
    run.responseTokens += encode(reading.read).length;
    run.transcript.push({ tool, args, read: reading.read });
    run.last = reading;
    return reading;
  };
  const finish = (stop: string) => {
    run.stop = stop;
    return run;
  };

  if (task.question) return browseForAnswer(call, task, finish);
  // The user's words straight to start_action: it searches and starts the match that takes the
  // fields, and confirms at once whatever needs nobody's approval on the record the words named.
  // No key on a start or an advance, as the model-played rounds of issue 23 sent none: the server
  // keys such a change itself. A confirm still sends one.
  let r = await call("start_action", { intent: task.intent, patch: task.facts });
  if (!r.actionId) {
    // Nothing fitted: start what the answer offers, as a model reads the matches.
    const wanted = Object.keys(task.facts);
    const fits = r.capabilities.find((c) => wanted.every((f) => c.inputs.includes(f)));
    const starts = r.next.filter((n) => n.tool === "start_action");
    const start = starts.find((n) => fits && n.args.capability === fits.id) ?? starts[0];
    if (!start) return finish(`stuck: ${r.outcome} and no capability to start`);
    if (typeof start.args.capability !== "string") return finish("stuck: no capability named");
    r = await call("start_action", { ...start.args, patch: task.facts });
  }
  const approved = new Set<string>();
  // Facts went with start_action; sending them again would not change the answer.
  const filled = new Set<string>(Object.keys(task.facts));
  while (run.calls < MAX_CALLS) {
    if (r.next.length === 0) return finish(`finished: ${r.outcome}`);
    // The answer says the user must say which record: the agent asks them, runs nothing.
    if (r.askUser) return finish("finished: asked the user which record");
    const advance = r.next.find((n) => n.tool === "advance_action");
    const confirm = r.next.find((n) => n.tool === "confirm_action");
    const verify = r.next.find((n) => n.tool === "verify_action");
    const recover = r.next.find((n) => n.tool === "recover_action");
    // Not possible now, and the answer says what is instead: tell the user, start nothing.
    if (r.outcome === "rejected" && r.next.some((n) => n.tool === "start_action"))
      return finish(`finished: rejected${r.reason ? ` (${r.reason})` : ""}`);
    // The person's approval at the link carries the change out (a host that opens no URL lists no
    // confirm then; the message says nothing is to be called): the agent gives the user the link,
    // and reads the result only when they approved.
    const awaitedId = /approval at the link carries it out/i.test(r.message) ? String(r.actionId ?? "") : "";
    if (!confirm && awaitedId && !approved.has(awaitedId)) {
      if (!r.approvalUrl) return finish("stuck: approval needed but no link to give the user");
      const seen = await hooks.approve(awaitedId);
      approved.add(awaitedId);
      if (seen === "applied") return finish("finished: applied when the person approved");
      r = await call("get_context", { action_id: awaitedId });
      continue;
    }
    if (r.needs.length && advance) {
      const patch: Record<string, unknown> = {};
      for (const field of r.needs) {
        const pick = task.picks?.[field];
        // One pick per field: a second "fix" for it means the user's choice does not work here.
        const chosen = pick && !filled.has(field) ? r.choices.find((c) => pick.test(c.line)) : undefined;
        if (chosen) {
          patch[field] = chosen.id;
          filled.add(field);
        } else if (field in task.facts && !filled.has(field)) {
          patch[field] = task.facts[field];
          filled.add(field);
        }
      }
      if (!Object.keys(patch).length) return finish(`stuck: nothing to send for ${r.needs.join(", ")}`);
      r = await call("advance_action", { ...advance.args, patch });
      continue;
    }
    if (confirm) {
      const actionId = String(confirm.args.action_id ?? "");
      if (!actionId) return finish("stuck: confirm_action without an action id");
      if (confirm.needsApproval && !approved.has(actionId)) {
        if (!r.approvalUrl && !confirm.description.includes("/confirm/"))
          return finish("stuck: approval needed but no link to give the user");
        const seen = await hooks.approve(actionId);
        approved.add(actionId);
        // The answer said the approval carries it out: the person saw it done on their screen,
        // nothing is left to call. Anything else they saw, the agent reads and follows.
        if (/approval carries it out/i.test(confirm.description)) {
          if (seen === "applied") return finish("finished: applied when the person approved");
          r = await call("get_context", { action_id: actionId });
          continue;
        }
      }
      r = await call("confirm_action", { ...confirm.args, idempotency_key: hooks.idempotencyKey() });
      continue;
    }
    if (verify) {
      r = await call("verify_action", verify.args);
      if (r.next.every((n) => n.tool === "verify_action")) return finish(`finished: ${r.outcome}`);
      continue;
    }
    if (recover) {
      r = await call("recover_action", recover.args);
      continue;
    }
    // Only other capabilities are offered (alternatives): tell the user, do not start them.
    return finish(`finished: ${r.outcome}${r.reason ? ` (${r.reason})` : ""}`);
  }
  return finish("stuck: call budget spent");
}

/** A question, not a change: find the page with the browse tools and read it. */
async function browseForAnswer(
  call: (tool: string, args: Record<string, unknown>) => Promise<Reading>,
  task: AgentTask,
  finish: (stop: string) => AgentRun,
): Promise<AgentRun> {
  const found = await call("search", { query: task.intent });
  // The words named one page and the answer carries it: read, nothing more to open.
  if (/^## \[.*\]\([a-z]+:\/\/[^)]*\) \(opened here\)$/m.test(found.read))
    return finish("finished: read a page");
  const target = found.links.find((l) => !l.startsWith("actions://"));
  if (!target) return finish("stuck: search found no page");
  await call("navigate", { uri: target });
  return finish("finished: read a page");
}
