import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { ScriptLimits } from "./script-limits";
import type { ScriptCall, ScriptCallAnswer, ScriptHostFunction, ScriptRun } from "./script-run";
import type { WorkerReply, WorkerRequest } from "./script-worker-protocol";

/** Sandbox threads per process. */
const WORKERS = 2;
/**
 * Runs one thread holds at once: a run occupies its thread only while its code runs, not while
 * it awaits a call or a sleep, so two sleeping scripts no longer hold every thread.
 */
const RUNS_PER_THREAD = 8;
/**
 * Engine memory the runs on one thread may reserve together: each run's instance may grow to its
 * memoryBytes + 16 MiB (sandbox-module.ts). Eight runs at the default limits fit; tenants with
 * larger limits get fewer runs per thread.
 */
const THREAD_MEMORY_BYTES = 1024 * 1024 * 1024;
const ENGINE_HEADROOM_BYTES = 16 * 1024 * 1024;
/** Longest a run waits for a free slot before it answers sandbox_busy (less if its wall time ends first). */
const MAX_QUEUE_MS = 5_000;
/** How long past its wall time a run may take to report before its thread is ended. */
const GRACE_MS = 2_000;
/** How often the CPU watchdog reads the runs' meters, and how far past its CPU limit a run may get. */
const WATCH_MS = 100;
const CPU_GRACE_MS = 250;

type Death = { end: ScriptRun["end"]; message: string };

interface Thread {
  worker: Worker;
  /** Runs on it, and runs handed to it that have not started yet. */
  load: number;
  /** Engine memory those runs may grow to, bytes. */
  reserved: number;
  /** Its runs per group (tenant). */
  groups: Map<string, number>;
  runs: Map<number, { message(reply: WorkerReply): void; died(death: Death): void }>;
  /** Ends the thread: every run still on it ends with `death`. */
  end(death: Death): void;
}

const threads: Thread[] = [];
/** What a run takes on a thread: a slot, engine memory, and its group's place. */
interface Seat {
  need: number;
  group: string;
}

interface Waiter extends Seat {
  take(answer: Thread | "busy" | "cancelled" | "unavailable"): void;
}
const waiting: Waiter[] = [];
let nextRun = 0;

const STOPPED: Death = { end: "sandbox_unavailable", message: "The script sandbox stopped; try again" };

/**
 * A new sandbox thread, started from the plain-JavaScript entry next to this file, found under
 * the project folder (`SIGNPOST_ROOT`, set by the server and the CLI; else the working folder, as
 * in tests).
 */
function spawn(): Thread {
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
    // The scripts' heaps are the engines' capped WebAssembly memories; this bounds the thread's own.
    { resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32 } },
  ]);
  worker.unref();
  let dead = false;
  const thread: Thread = {
    worker,
    load: 0,
    reserved: 0,
    groups: new Map(),
    runs: new Map(),
    end(death) {
      if (dead) return;
      dead = true;
      threads.splice(threads.indexOf(thread), 1);
      const runs = [...thread.runs.values()];
      thread.runs.clear();
      for (const run of runs) run.died(death);
      void worker.terminate();
      // Waiting runs get a fresh thread in its place.
      serveWaiting();
    },
  };
  threads.push(thread);
  worker.on("message", (reply: WorkerReply) => thread.runs.get(reply.runId)?.message(reply));
  // A value V8 cannot pass between threads (nested thousands deep). The sandbox checks nesting
  // before anything is sent, so this is a backstop; which run sent it cannot be told.
  worker.on("messageerror", () =>
    thread.end({
      end: "sandbox_unavailable",
      message: "The script sandbox received a value it cannot read (nested too deeply); try again",
    }),
  );
  worker.on("error", (error: Error & { code?: string }) =>
    thread.end(
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? { end: "script_memory", message: "The script sandbox's thread ran out of memory" }
        : { end: "sandbox_unavailable", message: "The script sandbox failed; try again" },
    ),
  );
  worker.on("exit", () => thread.end(STOPPED));
  return thread;
}

/**
 * A thread for `seat`, its slot taken: one already running the seat's group (a tenant's runs
 * share a thread, so its spinning scripts hold up only that thread, not every tenant's), else an
 * idle thread, else a new one while there are fewer than WORKERS, else the least-loaded one with
 * a free slot and room, else none.
 */
function takeThread(seat: Seat): Thread | undefined {
  const fits = (t: Thread) => t.load < RUNS_PER_THREAD && t.reserved + seat.need <= THREAD_MEMORY_BYTES;
  let best: Thread | undefined;
  for (const t of threads) if (fits(t) && (!best || t.load < best.load)) best = t;
  const thread =
    threads.find((t) => fits(t) && t.groups.has(seat.group)) ??
    (best?.load === 0 || threads.length >= WORKERS ? best : spawn());
  if (thread) {
    thread.load++;
    thread.reserved += seat.need;
    thread.groups.set(seat.group, (thread.groups.get(seat.group) ?? 0) + 1);
  }
  return thread;
}

/** Hands freed slots to waiting runs, first come first served. */
function serveWaiting() {
  for (let head = waiting[0]; head; head = waiting[0]) {
    let thread: Thread | undefined;
    try {
      thread = takeThread(head);
    } catch {
      waiting.shift();
      head.take("unavailable");
      continue;
    }
    if (!thread) return;
    waiting.shift();
    head.take(thread);
  }
}

/** A slot on a thread, waiting at most until `until` (epoch ms) or until `signal` aborts. */
function acquire(
  seat: Seat,
  until: number,
  signal?: AbortSignal,
): Promise<Thread | "busy" | "cancelled" | "unavailable"> {
  if (!waiting.length) {
    try {
      const thread = takeThread(seat);
      if (thread) return Promise.resolve(thread);
    } catch {
      return Promise.resolve("unavailable");
    }
  }
  return new Promise((resolve) => {
    const waiter: Waiter = {
      ...seat,
      take(answer) {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(answer);
      },
    };
    const leave = (answer: "busy" | "cancelled") => {
      const at = waiting.indexOf(waiter);
      if (at >= 0) waiting.splice(at, 1);
      waiter.take(answer);
    };
    const onAbort = () => leave("cancelled");
    const timer = setTimeout(() => leave("busy"), Math.max(0, until - Date.now()));
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(waiter);
  });
}

function release(thread: Thread, seat: Seat) {
  thread.load--;
  thread.reserved -= seat.need;
  const left = (thread.groups.get(seat.group) ?? 1) - 1;
  if (left > 0) thread.groups.set(seat.group, left);
  else thread.groups.delete(seat.group);
  serveWaiting();
}

export interface ScriptRunInWorkerOptions {
  /** When the request arrived, epoch ms: wall time and usage count from here, queueing included. */
  startedAt?: number;
  /** Aborted when the client goes away: a waiting run leaves the queue, a running one is stopped. */
  signal?: AbortSignal;
  /** Whose run it is (the tenant): one group's runs share a thread first. */
  group?: string;
}

/**
 * `runScript` on a sandbox thread: the same run and the same answer, but a script's CPU time is
 * that thread's, so the server keeps answering while a script spins. The functions run here, on
 * the server's thread, when the script calls them. A run waits at most 5 s for a slot
 * (sandbox_busy after that). A watchdog here reads the run's CPU meter, since QuickJS's own
 * interrupt polling misses a loop of expensive builtins: a run past its CPU time, or past its
 * wall time by 2 s, has its thread ended (and replaced; the other runs on that thread answer
 * sandbox_unavailable with the calls they made). A dying thread ends its runs with what is known.
 */
export async function runScriptInWorker(
  code: string,
  functions: Record<string, ScriptHostFunction>,
  limits: ScriptLimits,
  options: ScriptRunInWorkerOptions = {},
): Promise<ScriptRun> {
  const startedAt = options.startedAt ?? Date.now();
  const deadline = startedAt + limits.wallMs;
  const { signal } = options;
  const calls: ScriptCall[] = [];
  const meter = new Float64Array(new SharedArrayBuffer(16));
  const cpuUsed = () => {
    const open = meter[0] ?? 0;
    return (meter[1] ?? 0) + (open ? Math.max(0, Date.now() - open) : 0);
  };
  const ended = (end: ScriptRun["end"], message: string): ScriptRun => ({
    end,
    logs: [],
    logsDropped: 0,
    calls: calls.map((c) => ({ ...c, outcome: c.outcome === "pending" ? "unfinished" : c.outcome })),
    error: { message },
    cpuMs: Math.round(cpuUsed()),
    wallMs: Date.now() - startedAt,
  });
  const cancelledRun = () => ended("cancelled", "The request was cancelled, so the script was stopped");

  if (signal?.aborted) return cancelledRun();
  const seat: Seat = { need: limits.memoryBytes + ENGINE_HEADROOM_BYTES, group: options.group ?? "" };
  const thread = await acquire(seat, Math.min(deadline, Date.now() + MAX_QUEUE_MS), signal);
  if (thread === "cancelled") return cancelledRun();
  if (thread === "unavailable")
    return ended("sandbox_unavailable", "The script sandbox could not start; try again");
  if (thread === "busy")
    return ended(
      "sandbox_busy",
      `Every script sandbox stayed busy for ${Date.now() - startedAt} ms; try again in a few seconds`,
    );

  const runId = nextRun++;
  return new Promise<ScriptRun>((resolve) => {
    let settled = false;
    let cancelled = false;
    const finish = (run: ScriptRun) => {
      if (settled) return;
      settled = true;
      clearInterval(cpuWatch);
      clearTimeout(wallWatch);
      signal?.removeEventListener("abort", onAbort);
      thread.runs.delete(runId);
      release(thread, seat);
      resolve({ ...run, wallMs: Date.now() - startedAt });
    };
    /** This run overran a limit the sandbox could not enforce: its thread is ended. */
    const stopThread = (run: ScriptRun) => {
      finish(run);
      thread.end({
        end: "sandbox_unavailable",
        message: "The script sandbox was restarted (another script on it overran its limits); try again",
      });
    };
    const onAbort = () => {
      cancelled = true;
      // The thread stops the run at its next step; calls it still sends are refused here.
      thread.worker.postMessage({ type: "cancel", runId } satisfies WorkerRequest);
    };
    const answer = (callId: number, value: ScriptCallAnswer) => {
      if (!settled)
        thread.worker.postMessage({ type: "answer", runId, callId, answer: value } satisfies WorkerRequest);
    };
    const onCall = (message: Extract<WorkerReply, { type: "call" }>) => {
      if (cancelled)
        return answer(message.callId, {
          value: {
            outcome: "rejected",
            reason: "cancelled",
            message: "The request was cancelled",
            next_actions: [],
          },
          target: "",
          outcome: "rejected",
        });
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
      void answered.then((value) => {
        calls.push({
          fn: message.name,
          target: value.target,
          outcome: value.outcome,
          ms: Math.round(performance.now() - began),
        });
        answer(message.callId, value);
      });
    };
    thread.runs.set(runId, {
      message: (reply) => (reply.type === "done" ? finish(reply.run) : onCall(reply)),
      died: (death) => finish(ended(death.end, death.message)),
    });
    const cpuWatch = setInterval(() => {
      if (meter[0] && cpuUsed() > limits.cpuMs + CPU_GRACE_MS)
        stopThread(ended("script_timeout", `The script ran longer than its CPU time (${limits.cpuMs} ms)`));
    }, WATCH_MS);
    const wallWatch = setTimeout(
      () => {
        const over = ended(
          "script_timeout",
          `The script ran longer than its wall time (${limits.wallMs} ms)`,
        );
        // Its own code still running: only ending the thread stops it. Otherwise the thread is
        // busy with another run (which its own watchdogs stop): this one answers, and is told to stop.
        if (meter[0]) return stopThread(over);
        onAbort();
        finish(over);
      },
      Math.max(0, deadline + GRACE_MS - Date.now()),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    thread.worker.postMessage({
      type: "run",
      runId,
      code,
      names: Object.keys(functions),
      limits,
      deadline,
      meter: meter.buffer as SharedArrayBuffer,
    } satisfies WorkerRequest);
  });
}
