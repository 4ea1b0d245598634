import type { CallToolResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { BrowsePage } from "@/server/browse/render-page";
import type { BrowseBackend, BrowseVerb } from "@/server/connectors/sdk/browse-backend";
import { redactSecrets, redactText } from "@/server/redact-secrets";
import { runScriptInWorker } from "@/server/script/run-script-in-worker";
import type { ScriptLimits } from "@/server/script/script-limits";
import type { ScriptCallAnswer, ScriptHostFunction, ScriptRun } from "@/server/script/script-run";
import { compactSchema, type RawArguments } from "./compact-schema";
import type { ActionToolName, GatewayOutcome, GatewayPort } from "./gateway-port";
import { runBrowseTool } from "./register-browse-tools";

/** Longest script accepted: far beyond any useful one, small enough to audit and parse cheaply. */
const MAX_CODE = 64 * 1024;

export const runScriptInput = z
  .object({
    code: z.string().min(1).max(MAX_CODE).describe("Function body"),
  })
  .strict();

/**
 * What one run needs for its caller: the caller seen through the `script` face, and the gateway
 * around it. Opened per run, so that each run's rows share their own request id.
 */
export interface ScriptFaceBackend<Ctx> {
  /** The caller, relabelled `script`: every call the script makes is audited under that face. */
  context: Ctx;
  /** Browse for the same caller (face `script`). */
  browse: BrowseBackend;
  /** The `script` permission for this caller (admins turn the face off with a deny rule). */
  authorize(): Promise<{ decision: "allow" | "deny" | "ask"; message: string; audit: string }>;
  /**
   * Claims a running script for the caller: one per agent key, and a few per tenant, so that no
   * key or tenant holds the sandboxes every other tenant shares; the refusal says which.
   */
  claim(): { release(): void } | { refused: string };
  /** Whose runs share a sandbox thread first (the tenant): its spinning scripts hold up only that one. */
  sandboxGroup: string;
  /** When the HTTP request arrived (epoch ms): the run's wall time counts from here. */
  startedAt?: number;
  /** Aborted when the HTTP request's client goes away: the run is cancelled, queued or running. */
  signal?: AbortSignal;
  /** The tenant's limits over the defaults. */
  limits(): Promise<ScriptLimits>;
  /** Spends one call of the agent key's budget, as a direct tool call would. */
  charge(): Promise<{ ok: true } | { ok: false; retryAfterS: number }>;
  /** The run's own audit row (`script.ran`), next to the rows of its calls (same request id). */
  record(event: {
    arguments: Record<string, unknown>;
    outcome: string;
    message: string;
    decision: string | null;
    latencyMs: number;
  }): Promise<void>;
}

/** Script function → action operation: the same gateway call the action tools make. */
const ACTION_FUNCTIONS: Record<string, ActionToolName> = {
  searchCapabilities: "search_capabilities",
  startAction: "start_action",
  getContext: "get_context",
  advanceAction: "advance_action",
  confirmAction: "confirm_action",
  verifyAction: "verify_action",
  cancelAction: "cancel_action",
};

/** The functions a script has, besides console.log and sleep (the console's catalog lists them). */
export const SCRIPT_FUNCTION_NAMES = ["search", "navigate", "submit", ...Object.keys(ACTION_FUNCTIONS)];

// Teaches every function in one breath: with `?faces=script` alone this is all the agent reads.
// What each function returns is said here: a script that reads a field that is not there returns {}.
const DESCRIPTION = [
  "Run an async JS function body in a sandbox (no network or files); returns what it returns, as JSON.",
  "Await: search(query), navigate(uri), submit(uri,fields) → {uri,title,outcome,links,markdown};",
  "startAction({…}), confirmAction({…}), verifyAction… (each tool in camelCase, its arguments) → {outcome,message,action_id,version,missing,options,next_actions}; console.log.",
].join(" ");

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === "object" && !Array.isArray(value);

/** A call's target as the call list shows it: what the script sent may be any size. */
const targetOf = (value: unknown) => String(value ?? "").slice(0, 200);

/** What an approval awaits after the run: the latest answer for each action that stopped there. */
interface Awaiting {
  action_id: string;
  capability: string | null;
  version: number | null;
  approval_url: string | null;
  next_actions: GatewayOutcome["next_actions"];
}

/** The script face: one tool, `run_script`, whose functions are the other faces' operations. */
export function registerScriptTools<Ctx>(
  server: McpServer,
  gateway: GatewayPort<Ctx>,
  /** Opens a run for the caller of the request a call came in. */
  openRun: (ctx: ServerContext) => ScriptFaceBackend<Ctx>,
): void {
  server.registerTool(
    "run_script",
    {
      title: "Run script",
      description: DESCRIPTION,
      inputSchema: compactSchema(runScriptInput, { validation: "handler" }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args: RawArguments, ctx: ServerContext) =>
      scriptResult(await runScriptTool(gateway, openRun(ctx), args, ctx.mcpReq.signal)),
  );
}

/** One run: permission, limits, the sandbox with the caller's functions, then its audit row. */
async function runScriptTool<Ctx>(
  gateway: GatewayPort<Ctx>,
  backend: ScriptFaceBackend<Ctx>,
  args: RawArguments,
  cancelled: AbortSignal,
): Promise<GatewayOutcome> {
  const started = performance.now();
  const parsed = runScriptInput.safeParse(args);
  const code = parsed.success ? parsed.data.code : typeof args.code === "string" ? args.code : "";
  const audited = { code: code.slice(0, 2000) };
  if (!parsed.success) {
    const out = refusal(
      "invalid_arguments",
      `Invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
    );
    await backend.record({
      arguments: audited,
      outcome: out.outcome,
      message: out.message,
      decision: null,
      latencyMs: 0,
    });
    return out;
  }
  const decision = await backend.authorize();
  if (decision.decision !== "allow") {
    const out = refusal(
      decision.decision === "deny" ? "permission_denied" : "permission_required",
      `${decision.message}: this agent may not run scripts; use the other tools`,
    );
    await backend.record({
      arguments: audited,
      outcome: out.outcome,
      message: out.message,
      decision: decision.audit,
      latencyMs: performance.now() - started,
    });
    return out;
  }

  const claim = backend.claim();
  if ("refused" in claim) {
    const out = { ...refusal("script_busy", claim.refused), retryable: true };
    await backend.record({
      arguments: audited,
      outcome: out.outcome,
      message: out.message,
      decision: decision.audit,
      latencyMs: performance.now() - started,
    });
    return out;
  }
  const awaiting = new Map<string, Awaiting | null>();
  const functions = scriptFunctions(gateway, backend, awaiting);
  let run: ScriptRun;
  try {
    run = await runScriptInWorker(parsed.data.code, functions, await backend.limits(), {
      startedAt: backend.startedAt,
      group: backend.sandboxGroup,
      // Either the protocol's cancellation or the HTTP client going away stops the run.
      signal: backend.signal ? AbortSignal.any([cancelled, backend.signal]) : cancelled,
    });
  } finally {
    claim.release();
  }
  const out = runOutcome(
    run,
    [...awaiting.values()].filter((a): a is Awaiting => a !== null),
  );
  await backend.record({
    arguments: { ...audited, calls: run.calls.map((c) => `${c.fn} ${c.target} → ${c.outcome}`) },
    outcome: out.outcome,
    message: out.message,
    decision: decision.audit,
    latencyMs: performance.now() - started,
  });
  return out;
}

function refusal(reason: string, message: string): GatewayOutcome {
  return { outcome: "rejected", reason, message, retryable: false, next_actions: [] };
}

/** The script's functions, each one ordinary gateway operation for the caller (budget first). */
function scriptFunctions<Ctx>(
  gateway: GatewayPort<Ctx>,
  backend: ScriptFaceBackend<Ctx>,
  awaiting: Map<string, Awaiting | null>,
): Record<string, ScriptHostFunction> {
  const budgeted =
    (target: (args: unknown[]) => string, run: (args: unknown[]) => Promise<ScriptCallAnswer>) =>
    async (args: unknown[]): Promise<ScriptCallAnswer> => {
      const budget = await backend.charge();
      if (!budget.ok) {
        const message = `Too many calls with this agent key; retry in ${budget.retryAfterS} s`;
        return {
          value: {
            outcome: "temporarily_unavailable",
            reason: "rate_limited",
            message,
            retryable: true,
            retry_after_s: budget.retryAfterS,
            next_actions: [],
          },
          target: target(args),
          outcome: "temporarily_unavailable",
        };
      }
      return run(args);
    };

  const browse = (verb: BrowseVerb, toArgs: (args: unknown[]) => RawArguments) =>
    budgeted(
      (args) => targetOf(toArgs(args).uri ?? toArgs(args).query),
      async (args) => {
        const page: BrowsePage = await runBrowseTool(backend.browse, verb, toArgs(args));
        return {
          value: {
            uri: page.uri,
            title: page.title,
            outcome: page.outcome,
            links: page.links,
            markdown: page.markdown,
          },
          target: targetOf(page.uri),
          outcome: page.outcome,
        };
      },
    );

  const functions: Record<string, ScriptHostFunction> = {
    search: browse("search", ([query, opts]) => ({ query, ...(isObject(opts) ? opts : {}) })),
    navigate: browse("navigate", ([uri]) => ({ uri })),
    submit: browse("submit", ([uri, fields]) => ({ uri, fields })),
  };
  for (const [name, tool] of Object.entries(ACTION_FUNCTIONS)) {
    // searchCapabilities("intent") reads like search(); the object form works too.
    const input = (args: unknown[]): Record<string, unknown> =>
      tool === "search_capabilities" && typeof args[0] === "string"
        ? { query: args[0], ...(isObject(args[1]) ? args[1] : {}) }
        : isObject(args[0])
          ? args[0]
          : {};
    functions[name] = budgeted(
      (args) =>
        targetOf(
          input(args).action_id ??
            input(args).capability ??
            input(args).entity_id ??
            input(args).query ??
            tool,
        ),
      async (args) => {
        const raw = await gateway.operations[tool].run(backend.context, input(args));
        const value = typeof raw.message === "string" ? { ...raw, message: redactText(raw.message) } : raw;
        noteApproval(gateway, value, awaiting);
        const actionId = typeof value.action_id === "string" ? value.action_id : null;
        return {
          value,
          target: targetOf(
            actionId ?? input(args).capability ?? input(args).entity_id ?? input(args).query ?? tool,
          ),
          outcome: value.outcome,
        };
      },
    );
  }
  return functions;
}

/**
 * Keeps the latest state of each action the script touched: one at its confirmation with a
 * pending approval (or refused because the approval is pending) awaits a person; any later answer
 * for the same action replaces it. The answer gets the approval link, as the action tools give it.
 */
function noteApproval<Ctx>(
  gateway: GatewayPort<Ctx>,
  outcome: GatewayOutcome,
  awaiting: Map<string, Awaiting | null>,
): void {
  const actionId = typeof outcome.action_id === "string" ? outcome.action_id : null;
  if (!actionId) return;
  const approval = outcome.approval as { status?: string } | null | undefined;
  const pending =
    (outcome.requires_confirmation === true && approval?.status === "pending") ||
    outcome.reason === "approval_pending";
  if (!pending) {
    awaiting.set(actionId, null);
    return;
  }
  if (typeof outcome.approval_url !== "string") outcome.approval_url = gateway.approvalUrl(actionId);
  awaiting.set(actionId, {
    action_id: actionId,
    capability: typeof outcome.capability === "string" ? outcome.capability : null,
    version: typeof outcome.version === "number" ? outcome.version : null,
    approval_url: outcome.approval_url as string,
    next_actions: outcome.next_actions.filter((n) => n.requires_user_approval),
  });
}

const ENDS: Record<Exclude<ScriptRun["end"], "completed">, string> = {
  syntax_error: "script_syntax_error",
  script_error: "script_error",
  script_timeout: "script_timeout",
  script_memory: "script_memory",
  too_many_calls: "too_many_calls",
  script_output_too_large: "script_output_too_large",
  cancelled: "cancelled",
  sandbox_unavailable: "sandbox_unavailable",
  sandbox_busy: "sandbox_busy",
};

/** When a busy sandbox is worth asking again. */
const BUSY_RETRY_AFTER_S = 5;

/** The run as a typed outcome: applied when the script finished, rejected with the limit or error otherwise. */
function runOutcome(run: ScriptRun, awaiting: Awaiting[]): GatewayOutcome {
  const calls = run.calls.map(({ fn, target, outcome }) => ({ fn, target, outcome }));
  const common = {
    retryable: false,
    // What the script returns or logs came from pages and outcomes already redacted; once more
    // as a whole, as every answer is.
    logs: run.logs.map(redactText),
    ...(run.logsDropped ? { logs_dropped: run.logsDropped } : {}),
    calls,
    usage: { cpu_ms: run.cpuMs, wall_ms: run.wallMs, calls: calls.length },
    ...(awaiting.length ? { awaiting_approval: awaiting.map(({ next_actions: _, ...a }) => a) } : {}),
    next_actions: awaiting.flatMap((a) => a.next_actions),
  };
  const approvals = awaiting.length
    ? ` ${awaiting.length} action(s) await a person's approval: ${awaiting.map((a) => `${a.action_id} (${a.capability ?? "action"}) at ${a.approval_url}`).join("; ")}.`
    : "";
  if (run.end === "completed")
    return {
      outcome: "applied",
      message: `The script ran: ${calls.length} call(s).${approvals}`,
      result: redactSecrets(run.result ?? null),
      ...common,
    };
  const where = run.error?.line !== undefined ? ` (line ${run.error.line}, column ${run.error.column})` : "";
  // Only a sandbox that did not start or had no room is Signpost's side (and worth retrying): the
  // rest the script did.
  const unavailable = run.end === "sandbox_unavailable" || run.end === "sandbox_busy";
  return {
    outcome: unavailable ? "temporarily_unavailable" : "rejected",
    reason: ENDS[run.end],
    message: `${redactText(run.error?.message ?? "The script did not finish")}${where}.${approvals}`,
    ...(run.error ? { error: { ...run.error, message: redactText(run.error.message) } } : {}),
    ...common,
    retryable: unavailable,
    ...(run.end === "sandbox_busy" ? { retry_after_s: BUSY_RETRY_AFTER_S } : {}),
  };
}

/** Calls listed in the text block; all of them are in structuredContent. */
const TEXT_CALLS = 10;

/** A text block that alone says what happened: outcome, result, calls, logs, what awaits approval. */
function scriptResult(out: GatewayOutcome): CallToolResult {
  const lines = [`**${out.outcome}:** ${out.message}`];
  if (typeof out.reason === "string") lines.push(`Reason: \`${out.reason}\``);
  if ("result" in out) lines.push("", "Result:", "```json", JSON.stringify(out.result), "```");
  const calls = Array.isArray(out.calls)
    ? (out.calls as Array<{ fn: string; target: string; outcome: string }>)
    : [];
  if (calls.length) {
    lines.push("", `Calls (${calls.length}):`);
    for (const c of calls.slice(0, TEXT_CALLS)) lines.push(`- ${c.fn} \`${c.target}\` → ${c.outcome}`);
    if (calls.length > TEXT_CALLS)
      lines.push(`- … ${calls.length - TEXT_CALLS} more in structuredContent.calls`);
  }
  const logs = Array.isArray(out.logs) ? (out.logs as string[]) : [];
  if (logs.length) lines.push("", "Logs:", "```", ...logs, "```");
  return { content: [{ type: "text", text: lines.join("\n") }], structuredContent: out };
}
