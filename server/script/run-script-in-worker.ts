import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ScriptCall, ScriptCallAnswer, ScriptHostFunction, ScriptRun } from "./run-script";
import type { ScriptLimits } from "./script-limits";
import type { WorkerReply, WorkerRequest } from "./script-worker-protocol";

/** Sandbox threads per process: scripts beyond that wait for one (each key runs one at a time). */
const WORKERS = 2;
/** How long past its wall time a run may take to report before its thread is ended. */
const GRACE_MS = 2_000;

const idle: Worker[] = [];
const waiting: Array<{ resolve: (worker: Worker) => void; reject: (error: unknown) => void }> = [];
let live = 0;
let nextRun = 0;

/**
 * A new sandbox thread, started from the plain-JavaScript entry next to this file, found under
 * the project folder (`SIGNPOST_ROOT`, set by the server and the CLI; else the working folder, as
 * in tests).
 */
function spawn(): Worker {
  const entry = join(
    process.env.SIGNPOST_ROOT ?? process.cwd(),
    "server",
    "script",
    "sandbox-worker-entry.mjs",
  );
  // Constructed indirectly: the Next build follows a literal `new Worker(path)` and bundles the
  // entry (and tsx with it), which fails; the entry must be loaded by Node as it is.
  const worker: Worker = Reflect.construct(Worker, [
    entry,
    // The script's heap is the engine's capped WebAssembly memory; this bounds the thread's own.
    { resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 } },
  ]);
  worker.unref();
  live++;
  worker.once("exit", () => {
    live--;
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    // A waiting run gets a fresh thread in its place.
    const next = waiting.shift();
    if (next) acquireFresh(next);
  });
  return worker;
}

function acquireFresh(waiter: (typeof waiting)[number]) {
  try {
    waiter.resolve(spawn());
  } catch (error) {
    waiter.reject(error);
  }
}

function acquire(): Promise<Worker> {
  const worker = idle.pop();
  if (worker) return Promise.resolve(worker);
  if (live < WORKERS) return Promise.resolve(spawn());
  return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
}

function release(worker: Worker) {
  const next = waiting.shift();
  if (next) next.resolve(worker);
  else idle.push(worker);
}

function ended(end: ScriptRun["end"], message: string, calls: ScriptCall[], started: number): ScriptRun {
  return {
    end,
    logs: [],
    logsDropped: 0,
    calls,
    error: { message },
    cpuMs: 0,
    wallMs: Math.round(performance.now() - started),
  };
}

/**
 * `runScript` on a sandbox thread: the same run and the same answer, but a script's CPU time is
 * that thread's, so the server keeps answering while a script spins. The functions run here, on
 * the server's thread, when the script calls them. A thread that overruns its wall time or dies
 * (its own heap exhausted) is ended and replaced; its run answers with what is known.
 */
export async function runScriptInWorker(
  code: string,
  functions: Record<string, ScriptHostFunction>,
  limits: ScriptLimits,
): Promise<ScriptRun> {
  const started = performance.now();
  let worker: Worker;
  try {
    worker = await acquire();
  } catch {
    return ended("sandbox_unavailable", "The script sandbox could not start; try again", [], started);
  }
  const runId = nextRun++;
  const calls: ScriptCall[] = [];
  return new Promise<ScriptRun>((resolve) => {
    let settled = false;
    const finish = (run: ScriptRun, healthy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (healthy) release(worker);
      else void worker.terminate();
      resolve(run);
    };
    const onMessage = (message: WorkerReply) => {
      if (message.runId !== runId) return;
      if (message.type === "done") return finish(message.run, true);
      const fn = Object.hasOwn(functions, message.name) ? functions[message.name] : undefined;
      const began = performance.now();
      const answered = fn
        ? fn(message.args).catch(
            (): ScriptCallAnswer => ({
              value: { outcome: "unknown", message: "The call failed inside Signpost", next_actions: [] },
              target: "",
              outcome: "unknown",
            }),
          )
        : Promise.resolve<ScriptCallAnswer>({
            value: {
              outcome: "rejected",
              message: `${message.name} is not a function here`,
              next_actions: [],
            },
            target: "",
            outcome: "rejected",
          });
      void answered.then((answer) => {
        calls.push({
          fn: message.name,
          target: answer.target,
          outcome: answer.outcome,
          ms: Math.round(performance.now() - began),
        });
        if (!settled)
          worker.postMessage({ type: "answer", callId: message.callId, answer } satisfies WorkerRequest);
      });
    };
    const onError = (error: Error & { code?: string }) =>
      finish(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? ended(
              "script_memory",
              `The script used more memory than its limit (${limits.memoryBytes} bytes)`,
              calls,
              started,
            )
          : ended("sandbox_unavailable", "The script sandbox failed; try again", calls, started),
        false,
      );
    const onExit = () =>
      finish(ended("sandbox_unavailable", "The script sandbox stopped; try again", calls, started), false);
    const watchdog = setTimeout(
      () =>
        finish(
          ended(
            "script_timeout",
            `The script ran longer than its wall time (${limits.wallMs} ms)`,
            calls,
            started,
          ),
          false,
        ),
      limits.wallMs + GRACE_MS,
    );
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({
      type: "run",
      runId,
      code,
      names: Object.keys(functions),
      limits,
    } satisfies WorkerRequest);
  });
}
