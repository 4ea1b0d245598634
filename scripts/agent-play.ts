// stays-whole: one command-line tool whose subcommands share one session file and one way of counting.
// `npx tsx scripts/agent-play.ts …`: play the agent by hand (or hand it to a helper who has not
// seen the code), seeing exactly what a host shows a model, and count what it cost — for
// Signpost and, with --wrapper, for the one-tool-per-operation wrapper of the same legacy API.
//
//   start [--dir D]                 the demo (npm start's way: build if needed, migrate, seed,
//                                   legacy service + Signpost) in the background, on free ports
//   connect --url U --key K [--password P] [--legacy-url L --legacy-key LK] [--dir D]
//                                   use a Signpost that is already running instead
//   list-tools [--wrapper]          names, descriptions and input schemas, as a host lists them
//   call <tool> '<json>' [--wrapper]  the text blocks only (the wrapper: status and JSON body)
//   approve <approval-id|action-id|latest> [--as email]
//                                   approve as the person, through the console's own routes
//   resume [--decline]              finish a call that waits on the person (host elicitation mode;
//                                   --decline: the person declines, which withdraws the approval)
//   log                             calls and tokens so far, Signpost and wrapper side by side
//   stop                            stop what `start` started
//
// Two hosts for Signpost: `--host plain` (the default: text blocks only, no elicitation) and
// `--host elicitation`, a host that declares URL elicitation (MCP `input_required`). When a call
// answers input_required with a URL, the host shows the person the message and the link (the
// model reads nothing yet) and keeps the call open; `approve latest` approves as the person and
// then finishes that same call by retrying it with the signed requestState, as such a host does.
// The model made one call; what it reads is the final text. The two are logged as separate modes.
//
// The session (URLs, the agent key, the person's password) is kept in D/play.json (default
// /tmp/signpost-agent-play, mode 0600); every call is appended to D/calls.jsonl with the arguments
// the agent sent and the text it read (a confusing moment is then replayed with the very words,
// and a round's tokens can be traced to the answers that spent them). Tokens are
// counted as `npm run bench` counts them (o200k): definitions once per mode, as the tools'
// JSON; each answer as the text a model reads.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { z } from "zod";
import { renderSummary, summaryText } from "../server/connectors/sdk/render-decision-summary";
import { jsonTokens } from "../test/bench/json-tokens";
import { wrapOpenApiAsTools } from "../test/bench/openapi-tool-wrapper";
import { RestAgent } from "../test/bench/rest-agent";
import { demoInfoSchema, legacyKeysSchema } from "./demo-files";
import { root } from "./next-build";

const require = createRequire(import.meta.url);

const { values: flags, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    dir: { type: "string", default: "/tmp/signpost-agent-play" },
    wrapper: { type: "boolean", default: false },
    url: { type: "string" },
    key: { type: "string" },
    password: { type: "string" },
    "legacy-url": { type: "string" },
    "legacy-key": { type: "string" },
    as: { type: "string", default: "alice@acme.test" },
    faces: { type: "string" },
    host: { type: "string", default: "plain" },
    decline: { type: "boolean", default: false },
  },
});
const dir = flags.dir as string;
const sessionFile = join(dir, "play.json");
const callsFile = join(dir, "calls.jsonl");
/** A call the elicitation host keeps open while the person decides (one at a time, as a host). */
const pendingFile = join(dir, "pending-call.json");
const host = flags.host === "elicitation" ? "elicitation" : "plain";
if (flags.host !== "plain" && flags.host !== "elicitation")
  throw new Error(`--host plain|elicitation, not ${flags.host}`);
/** The log's name for this Signpost host: the plain one keeps its old name. */
const signpostMode = host === "plain" ? "signpost" : "signpost+elicitation";

const pendingSchema = z.object({
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  requestState: z.string(),
  keys: z.array(z.string()),
});

const sessionSchema = z.object({
  url: z.string(),
  key: z.string(),
  password: z.string().optional(),
  legacyUrl: z.string().optional(),
  legacyKey: z.string().optional(),
  pid: z.number().optional(),
});
type Session = z.infer<typeof sessionSchema>;

function session(): Session {
  if (!existsSync(sessionFile)) throw new Error(`no session in ${dir}: run \`start\` or \`connect\` first`);
  return sessionSchema.parse(JSON.parse(readFileSync(sessionFile, "utf8")));
}

function save(s: Session): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(sessionFile, JSON.stringify(s, null, 2), { mode: 0o600 });
}

function logCall(entry: Record<string, unknown>): void {
  appendFileSync(callsFile, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`, {
    mode: 0o600,
  });
}

async function start(): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const password = `play-${randomBytes(6).toString("hex")}`;
  const free = async () => {
    const { createServer } = await import("node:net");
    return new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const port = (s.address() as { port: number }).port;
        s.close(() => resolve(port));
      });
    });
  };
  const [port, legacyPort] = [await free(), await free()];
  const dataDir = join(dir, "data");
  const child = spawn(
    process.execPath,
    ["--import", pathToFileURL(require.resolve("tsx")).href, join(root, "scripts/start.ts")],
    {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        PORT: String(port),
        LEGACY_PORT: String(legacyPort),
        HOST: "127.0.0.1",
        SIGNPOST_DATA_DIR: dataDir,
        SIGNPOST_MASTER_KEY: process.env.SIGNPOST_MASTER_KEY ?? randomBytes(32).toString("hex"),
        SIGNPOST_DEMO_PASSWORD: password,
        NEXT_TELEMETRY_DISABLED: "1",
        LOG_LEVEL: "info",
      },
    },
  );
  let output = "";
  child.stdout?.on("data", (d) => {
    output += String(d);
  });
  child.stderr?.on("data", (d) => {
    output += String(d);
  });
  const deadline = Date.now() + 900_000;
  while (!output.includes("Signpost is running")) {
    if (child.exitCode !== null)
      throw new Error(`start exited with ${child.exitCode}:\n${output.slice(-3000)}`);
    if (Date.now() > deadline)
      throw new Error(
        `not ready after 15 minutes (the first start builds the console; slow on a loaded machine):\n${output.slice(-3000)}`,
      );
    await new Promise((r) => setTimeout(r, 300));
  }
  const demo = demoInfoSchema.parse(JSON.parse(readFileSync(join(dataDir, "demo.json"), "utf8")));
  const legacy = legacyKeysSchema.parse(JSON.parse(readFileSync(join(dataDir, "legacy.json"), "utf8")));
  const agent = demo.agents.find((a) => a.user === flags.as) ?? demo.agents[0];
  if (!agent) throw new Error("the demo has no agent key");
  save({
    url: `http://127.0.0.1:${port}`,
    key: agent.key,
    password,
    legacyUrl: demo.legacy.url,
    legacyKey: legacy.apiKeys.acme,
    ...(child.pid ? { pid: child.pid } : {}),
  });
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
  console.log(`ready: Signpost at http://127.0.0.1:${port} (agent ${agent.name}, acting for ${agent.user})`);
}

async function connectMcp(s: Session): Promise<Client> {
  const client =
    host === "elicitation"
      ? // A 2026-07-28 host that can open a URL for the person and hands input_required to us.
        new Client(
          { name: "signpost-agent-play", version: "1.0.0" },
          {
            versionNegotiation: { mode: "auto" },
            capabilities: { elicitation: { url: {} } },
            inputRequired: { autoFulfill: false },
          },
        )
      : new Client({ name: "signpost-agent-play", version: "1.0.0" }, { capabilities: {} });
  const url = new URL(`${s.url}/mcp`);
  if (flags.faces) url.searchParams.set("faces", flags.faces);
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${s.key}` } },
    }),
  );
  return client;
}

/** What a host shows the model of each tool: its name, description and input schema. */
async function definitions(s: Session, wrapper: boolean) {
  if (wrapper) return wrapOpenApiAsTools(await legacyDocument(s));
  const client = await connectMcp(s);
  try {
    return (await client.listTools()).tools
      .filter((t) => {
        const ui = (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui;
        return !ui?.visibility || ui.visibility.includes("model");
      })
      .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  } finally {
    await client.close();
  }
}

async function legacyDocument(s: Session) {
  if (!s.legacyUrl || !s.legacyKey)
    throw new Error("--wrapper needs the legacy service: connect with --legacy-url and --legacy-key");
  return (await (await fetch(`${s.legacyUrl}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
}

async function listTools(): Promise<void> {
  const s = session();
  const tools = await definitions(s, flags.wrapper as boolean);
  for (const t of tools)
    console.log(`## ${t.name}\n${t.description ?? ""}\ninput: ${JSON.stringify(t.inputSchema)}\n`);
  const mode = flags.wrapper ? "wrapper" : signpostMode;
  logCall({ mode, kind: "definitions", tools: tools.length, tokens: jsonTokens(tools) });
  console.log(`(${tools.length} tools, ${jsonTokens(tools)} tokens)`);
}

async function call(tool: string | undefined, json: string | undefined): Promise<void> {
  if (!tool) throw new Error("call <tool> '<json args>'");
  const args = z.record(z.string(), z.unknown()).parse(JSON.parse(json ?? "{}"));
  const s = session();
  let text: string;
  if (flags.wrapper) {
    const agent = new RestAgent(await legacyDocument(s), s.legacyUrl as string, s.legacyKey as string);
    const r = await agent.call(tool, args);
    text = JSON.stringify({ status: r.status, body: r.body });
    logCall({
      mode: "wrapper",
      kind: "call",
      tool,
      args,
      tokens: encode(text).length,
      unapproved: agent.unapproved.length,
      text,
    });
  } else {
    if (existsSync(pendingFile))
      throw new Error("a call still waits on the person: `approve latest` or `resume [--decline]` first");
    const r = await callSignpost(s, { name: tool, arguments: args });
    if (r.resultType === "input_required") {
      // The host, not the model, handles this: it shows the person the link and keeps the call
      // open. Counted as the model's call now; its text is counted when the call finishes.
      const requests = Object.entries(r.inputRequests ?? {});
      writeFileSync(
        pendingFile,
        JSON.stringify({
          tool,
          args,
          requestState: r.requestState ?? "",
          keys: requests.map(([k]) => k),
        }),
        { mode: 0o600 },
      );
      logCall({ mode: signpostMode, kind: "call", tool, args, tokens: 0, waits_on_person: true });
      for (const [, req] of requests)
        console.log(
          `[the host shows the person, not the model] ${String(req.params?.message ?? "")}\n  open: ${String(req.params?.url ?? "(a form the host shows)")}`,
        );
      console.log(
        "(the call is still open: `approve latest` approves as the person and finishes it; `resume --decline` declines, withdrawing the approval)",
      );
      return;
    }
    text = textOf(r);
    logCall({ mode: signpostMode, kind: "call", tool, args, tokens: encode(text).length, text });
  }
  console.log(text);
}

type ToolAnswer = {
  content?: Array<{ type: string; text?: string }>;
  resultType?: string;
  requestState?: string;
  inputRequests?: Record<string, { method?: string; params?: Record<string, unknown> }>;
};

const textOf = (r: ToolAnswer) =>
  (r.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text ?? "")
    .join("\n");

async function callSignpost(s: Session, params: Record<string, unknown>): Promise<ToolAnswer> {
  const client = await connectMcp(s);
  try {
    return (await client.callTool(
      params as { name: string; arguments: Record<string, unknown> },
      // Only a host that declared elicitation is handed input_required (manual mode).
      (host === "elicitation" ? { allowInputRequired: true } : undefined) as never,
    )) as ToolAnswer;
  } finally {
    await client.close();
  }
}

/**
 * The host finishes the call it kept open: the same tool and arguments again, with the signed
 * requestState and the person's answer (accept: they decided on the screen; decline: withdrawn,
 * the action cancelled). The text is what the model reads for its one call.
 */
async function resume(decline: boolean): Promise<void> {
  if (!existsSync(pendingFile)) throw new Error("no call waits on the person");
  const pending = pendingSchema.parse(JSON.parse(readFileSync(pendingFile, "utf8")));
  unlinkSync(pendingFile);
  const answer = decline ? { action: "decline" } : { action: "accept" };
  const r = await callSignpost(session(), {
    name: pending.tool,
    arguments: pending.args,
    requestState: pending.requestState,
    inputResponses: Object.fromEntries(pending.keys.map((k) => [k, answer])),
  });
  if (r.resultType === "input_required")
    throw new Error(`the retried call asked again: ${JSON.stringify(r.inputRequests)}`);
  const text = textOf(r);
  // The same model call: its tokens are added, the call is not counted twice.
  logCall({ mode: signpostMode, kind: "resumed", tool: pending.tool, tokens: encode(text).length, text });
  console.log(text);
}

/** The one line the confirm page shows after a decision (components/confirm-decision.tsx). */
function screenLine(ok: boolean, body: unknown): string {
  const b = (body ?? {}) as {
    message?: string;
    error?: { message?: string };
    result?: { outcome?: string; message?: string; external_id?: string | null };
    approval?: { status?: string; decided_by?: { name: string; role: string } | null };
  };
  if (!ok) return `Not decided: ${b.error?.message ?? b.message ?? "the console refused"}`;
  const by = b.approval?.decided_by
    ? ` by ${b.approval.decided_by.name} (${b.approval.decided_by.role})`
    : "";
  const head = `${b.approval?.status === "rejected" ? "Rejected" : "Approved"}${by}.`;
  const r = b.result;
  if (!r) return head;
  const done =
    r.outcome === "applied" ? "Done" : r.outcome === "unknown" ? "Sent, result not known yet" : "Not done";
  return `${head} ${done}: ${r.message ?? ""}${r.outcome === "applied" && r.external_id ? ` (reference ${r.external_id})` : ""}`;
}

/** Signs in as the person and approves through the console's routes, as the confirm page does. */
async function approve(which: string | undefined): Promise<void> {
  if (!which) throw new Error("approve <approval-id|action-id|latest>");
  const s = session();
  if (!s.password) throw new Error("approve needs the person's password: connect with --password");
  const origin = new URL(s.url).origin;
  const signIn = await fetch(`${s.url}/api/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: flags.as, password: s.password }),
  });
  if (!signIn.ok) throw new Error(`sign-in as ${flags.as} refused: ${await signIn.text()}`);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const headers = { cookie, origin, "content-type": "application/json" };
  const pending = (await (await fetch(`${s.url}/api/console/approvals`, { headers })).json()) as {
    approvals: Array<{ id: string; actionId: string; createdAt: string }>;
  };
  const found =
    which === "latest"
      ? [...pending.approvals].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]
      : pending.approvals.find((a) => a.id === which || a.actionId === which);
  const actionId = found?.actionId ?? which;
  if (which === "latest" && !found) throw new Error(`no pending approval for ${flags.as}`);
  const view = (await (
    await fetch(`${s.url}/api/console/actions/${encodeURIComponent(actionId)}/confirmation`, { headers })
  ).json()) as {
    confirmation?: { title?: string; approval?: { version?: number; status?: string; summary?: unknown } };
  };
  const version = view.confirmation?.approval?.version;
  if (!version) throw new Error(`no approval to decide on action ${actionId}: ${JSON.stringify(view)}`);
  // What the person reads before deciding (the confirm page's summary, by the same renderer): a
  // player judges the approval on this, not on what the agent was told.
  const shown = renderSummary(view.confirmation?.approval?.summary, view.confirmation?.title ?? actionId);
  console.log(`[the person's screen, before deciding:]\n${summaryText(shown)}`);
  const decided = await fetch(`${s.url}/api/console/actions/${encodeURIComponent(actionId)}/decision`, {
    method: "POST",
    headers,
    body: JSON.stringify({ decision: "approve", version }),
  });
  // What the person's screen says (the decision's result, as the confirm page shows it), not the
  // route's JSON: a reader of this transcript should not take the console's answer for the model's.
  console.log(`[the person's screen:] ${screenLine(decided.ok, await decided.json().catch(() => ({})))}`);
  // An elicitation host kept the call open for this decision: it now finishes it.
  if (existsSync(pendingFile)) {
    console.log("[the host retries the open call; the model reads:]");
    await resume(false);
  }
}

function printLog(): void {
  const rows = existsSync(callsFile)
    ? readFileSync(callsFile, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { mode: string; kind: string; tokens: number; unapproved?: number })
    : [];
  const line = (cells: Array<string | number>) =>
    console.log(cells.map((c, i) => String(c)[i ? "padStart" : "padEnd"](i ? 12 : 20)).join(" "));
  line(["mode", "calls", "tokens read", "definitions", "total"]);
  const modes = ["signpost", "signpost+elicitation", "wrapper"].filter((m) => rows.some((r) => r.mode === m));
  for (const mode of modes) {
    const calls = rows.filter((r) => r.mode === mode && r.kind === "call");
    const resumed = rows.filter((r) => r.mode === mode && r.kind === "resumed");
    const defs = rows.filter((r) => r.mode === mode && r.kind === "definitions").at(-1)?.tokens ?? 0;
    const read = [...calls, ...resumed].reduce((sum, r) => sum + r.tokens, 0);
    line([mode, calls.length, read, defs, read + defs]);
  }
  const unapproved = rows.reduce((sum, r) => sum + (r.unapproved ?? 0), 0);
  if (unapproved) console.log(`wrapper: ${unapproved} money-moving calls that no person approved`);
}

function stop(): void {
  const s = session();
  if (!s.pid) throw new Error("this session was connected, not started here: nothing to stop");
  try {
    // start.ts runs in its own process group: this ends it and its two children, nothing else.
    process.kill(-s.pid, "SIGTERM");
    console.log("stopped");
  } catch {
    console.log("already stopped");
  }
  save({ ...s, pid: undefined });
}

const [command, ...rest] = positionals;
const commands: Record<string, () => Promise<void> | void> = {
  start,
  connect: () => {
    if (!flags.url || !flags.key) throw new Error("connect --url <signpost url> --key <agent key>");
    save({
      url: flags.url.replace(/\/$/, ""),
      key: flags.key,
      ...(flags.password ? { password: flags.password } : {}),
      ...(flags["legacy-url"] ? { legacyUrl: flags["legacy-url"] } : {}),
      ...(flags["legacy-key"] ? { legacyKey: flags["legacy-key"] } : {}),
    });
    console.log(`connected: ${flags.url}`);
  },
  "list-tools": listTools,
  call: () => call(rest[0], rest[1]),
  approve: () => approve(rest[0]),
  resume: () => resume(flags.decline as boolean),
  log: printLog,
  stop,
};
const run = command ? commands[command] : undefined;
if (!run) {
  console.error(
    "usage: agent-play start|connect|list-tools|call|approve|resume|log|stop (see the top of scripts/agent-play.ts)",
  );
  process.exit(2);
}
Promise.resolve(run()).then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
