import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from "quickjs-emscripten-core";
import { jsonNestsDeeperThan } from "./json-nesting";
import { newSandboxModule } from "./sandbox-module";
import type { ScriptLimits } from "./script-limits";

/** What a host function gives back: the value the script sees, and what the call list records. */
export interface ScriptCallAnswer {
  value: unknown;
  /** What the call was about (a URI, a capability, an action id), as its audit row names it. */
  target: string;
  /** The typed outcome the call answered with. */
  outcome: string;
}

/** One function the script may call; `args` are the script's arguments, JSON-parsed. */
export type ScriptHostFunction = (args: unknown[]) => Promise<ScriptCallAnswer>;

/** One call the script made, in the order it made them. */
export interface ScriptCall {
  fn: string;
  target: string;
  outcome: string;
  ms: number;
}

export type ScriptEnd =
  | "completed"
  | "syntax_error"
  | "script_error"
  | "script_timeout"
  | "script_memory"
  | "too_many_calls"
  | "script_output_too_large"
  /** The request was cancelled (the client went away): the script was stopped. */
  | "cancelled"
  /** The engine could not start (not the script's doing): worth retrying. */
  | "sandbox_unavailable"
  /** Every sandbox slot stayed taken for as long as the run could wait: worth retrying later. */
  | "sandbox_busy";

export interface ScriptRun {
  end: ScriptEnd;
  /** What the script returned (JSON), when it completed. */
  result?: unknown;
  logs: string[];
  /** console lines not kept (past the log limit). */
  logsDropped: number;
  calls: ScriptCall[];
  /** Why it ended otherwise, in words an agent can act on, with the script's own line and column. */
  error?: { message: string; line?: number; column?: number };
  cpuMs: number;
  wallMs: number;
}

/** Longest a single `sleep(ms)` waits, and how many one run may make. */
const MAX_SLEEP_MS = 5_000;
const MAX_SLEEPS = 100;
/** Calls of one run that go to the gateway at the same time; the rest wait their turn. */
const CALL_CONCURRENCY = 4;
/** Arguments of one call, as JSON: far above any tool's own bounds, below what would hurt to parse. */
const MAX_ARGUMENT_BYTES = 256 * 1024;
/** Arrays and objects nested in a result or a call's arguments: far beyond any real answer. */
const MAX_NESTING = 64;
/** The script is wrapped in one line above it: reported lines are moved back by this much. */
const WRAPPER_LINES = 1;
const FILE = "script.js";

/**
 * Installs the script's world and removes the raw bridges: each name becomes an async function
 * that sends its arguments as JSON and parses the answer; console and sleep are bounded.
 * Evaluated before the script, in its context.
 */
const PRELUDE = `(() => {
  "use strict";
  const call = globalThis.__call, log = globalThis.__log, pause = globalThis.__sleep;
  const names = JSON.parse(globalThis.__names);
  const parse = JSON.parse, stringify = JSON.stringify;
  delete globalThis.__call; delete globalThis.__log; delete globalThis.__sleep; delete globalThis.__names;
  const fix = (name, value) => Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false });
  for (const name of names) fix(name, async function (...args) { return parse(await call(name, stringify(args) ?? "[]")); });
  const show = (v) => { if (typeof v === "string") return v; try { const s = stringify(v); return s === undefined ? String(v) : s; } catch { return String(v); } };
  const write = (level) => (...args) => { log(level, args.map(show).join(" ")); };
  fix("console", Object.freeze({ log: write("log"), info: write("info"), warn: write("warn"), error: write("error") }));
  fix("sleep", (ms) => pause(Number(ms) || 0));
  // The result's serializer, handed to the host: the script may replace JSON or Promise methods,
  // never these captured ones.
  return (v) => { const s = stringify(v === undefined ? null : v); return s === undefined ? "null" : s; };
})();`;

class Stop extends Error {
  constructor(
    readonly end: ScriptEnd,
    message: string,
  ) {
    super(message);
  }
}

export interface ScriptRunOptions {
  /** When the wall time ends, epoch ms (`Date.now()`): from the request's arrival. Default: now + wallMs. */
  deadline?: number;
  /**
   * Shared with a watchdog on another thread, written at each slice of the script's code: [0] the
   * slice's start (epoch ms, 0 between slices), [1] CPU ms used before it. QuickJS polls its
   * interrupt handler only every few thousand steps, so one builtin per step (a 16 MiB indexOf)
   * can outrun the CPU limit here; the watchdog ends the thread then.
   */
  meter?: Float64Array;
  /** Aborted when the request is cancelled: the run ends as `cancelled` at the script's next step. */
  signal?: AbortSignal;
}

/** The mutable state of one run, shared by its host functions, its slices of CPU and its loop. */
interface Run {
  readonly code: string;
  readonly limits: ScriptLimits;
  readonly meter: Float64Array | undefined;
  readonly started: number;
  readonly wallDeadline: number;
  readonly calls: ScriptCall[];
  readonly logs: string[];
  logBytes: number;
  logsDropped: number;
  cpuMs: number;
  sliceStart: number;
  stop: Stop | null;
  /** Calls and sleeps the script waits on: none, and an unsettled promise never settles. */
  inFlight: number;
  sleeps: number;
  requested: number;
  /** False once the run ended: late answers are dropped, never handed to a disposed engine. */
  alive: boolean;
  wake: () => void;
  readonly open: Set<QuickJSDeferredPromise>;
  /** Calls waiting for one of the CALL_CONCURRENCY slots, and how many hold one. */
  readonly waiting: Array<() => void>;
  running: number;
}

/** Read through a function: the callbacks that set it are invisible to the compiler's narrowing. */
const halted = (run: Run): Stop | null => run.stop;

function finish(run: Run, end: ScriptEnd, extra: Partial<ScriptRun> = {}): ScriptRun {
  return {
    end,
    logs: run.logs,
    logsDropped: run.logsDropped,
    // A copy: calls still in flight when the run ended keep running in the gateway (and are
    // audited there); here they are what they were when it ended.
    calls: run.calls.map((c) => ({ ...c, outcome: c.outcome === "pending" ? "unfinished" : c.outcome })),
    cpuMs: Math.round(run.cpuMs),
    wallMs: Math.round(performance.now() - run.started),
    ...extra,
  };
}

/**
 * Runs agent JavaScript (an async function body: `return` gives the result) in a fresh QuickJS
 * WebAssembly instance that has nothing but `functions`, `console` and `sleep`: no network, files,
 * timers, modules, environment or host objects. Every limit ends the run with its own `end`, the
 * calls made so far kept; nothing the script does throws here.
 */
export async function runScript(
  code: string,
  functions: Record<string, ScriptHostFunction>,
  limits: ScriptLimits,
  options: ScriptRunOptions = {},
): Promise<ScriptRun> {
  const started = performance.now();
  const { meter, signal } = options;
  const run: Run = {
    code,
    limits,
    meter,
    started,
    wallDeadline: started + ((options.deadline ?? Date.now() + limits.wallMs) - Date.now()),
    calls: [],
    logs: [],
    logBytes: 0,
    logsDropped: 0,
    cpuMs: 0,
    sliceStart: 0,
    stop: null,
    inFlight: 0,
    sleeps: 0,
    requested: 0,
    alive: true,
    wake: () => undefined,
    open: new Set(),
    waiting: [],
    running: 0,
  };
  const cancel = () => {
    run.stop ??= new Stop("cancelled", "The request was cancelled, so the script was stopped");
    run.wake();
  };

  let module: Awaited<ReturnType<typeof newSandboxModule>>;
  try {
    module = await newSandboxModule(limits.memoryBytes);
  } catch {
    return finish(run, "sandbox_unavailable", {
      error: { message: "The script sandbox could not start; try again" },
    });
  }
  let rt: QuickJSRuntime | undefined;
  let ctx: QuickJSContext | undefined;
  let serializer: QuickJSHandle | undefined;
  let broken = false;
  try {
    rt = module.newRuntime();
    limitRuntime(run, rt);
    const vm = rt.newContext();
    ctx = vm;
    if (signal?.aborted) cancel();
    signal?.addEventListener("abort", cancel, { once: true });

    installHostFunctions(run, vm, functions);
    const prelude = slice(run, () => vm.evalCode(PRELUDE, "prelude.js"));
    if (prelude.error) {
      prelude.error.dispose();
      throw new Error("the script prelude failed");
    }
    serializer = prelude.value;

    const wrapped = `(async function () {\n${code}\n})()`;
    const evaluated = slice(run, () => vm.evalCode(wrapped, FILE));
    const early = halted(run);
    if (early) {
      if (evaluated.error) evaluated.error.dispose();
      else evaluated.value.dispose();
      return finish(run, early.end, { error: { message: early.message } });
    }
    if (evaluated.error) return thrownEnd(run, vm, evaluated.error, true);
    return await settleScript(run, rt, vm, evaluated.value, serializer);
  } catch (error) {
    // An engine abort (its memory exhausted past what it can report): the instance is unusable.
    broken = true;
    const message = error instanceof Error ? error.message : String(error);
    return finish(run, /memory|abort|unreachable/i.test(message) ? "script_memory" : "script_error", {
      error: {
        message: /memory|abort|unreachable/i.test(message)
          ? `The script used more memory than its limit (${limits.memoryBytes} bytes)`
          : "The sandbox failed while running the script",
      },
    });
  } finally {
    run.alive = false;
    signal?.removeEventListener("abort", cancel);
    if (meter) meter[0] = 0;
    for (const resolve of run.waiting.splice(0)) resolve();
    if (!broken) {
      try {
        serializer?.dispose();
        for (const deferred of run.open) deferred.dispose();
        ctx?.dispose();
        rt?.dispose();
      } catch {
        // A run that ended mid-flight may hold handles; the whole instance is dropped either way.
      }
    }
  }
}

/** The engine's memory and stack caps, and the interrupt that ends a run past its CPU or wall time. */
function limitRuntime(run: Run, rt: QuickJSRuntime): void {
  const { limits } = run;
  rt.setMemoryLimit(limits.memoryBytes);
  // Deeper than 256 KiB, QuickJS's recursion reaches past the host's own stack.
  rt.setMaxStackSize(256 * 1024);
  rt.setInterruptHandler(() => {
    if (run.stop) return true;
    const now = performance.now();
    if (run.cpuMs + (now - run.sliceStart) > limits.cpuMs)
      run.stop = new Stop("script_timeout", `The script ran longer than its CPU time (${limits.cpuMs} ms)`);
    else if (now > run.wallDeadline)
      run.stop = new Stop("script_timeout", `The script ran longer than its wall time (${limits.wallMs} ms)`);
    return run.stop !== null;
  });
}

/** Runs the script's code for a while, counting the time as its CPU (and telling the watchdog). */
function slice<T>(run: Run, fn: () => T): T {
  const { meter } = run;
  run.sliceStart = performance.now();
  if (meter) {
    meter[1] = run.cpuMs;
    meter[0] = Date.now();
  }
  try {
    return fn();
  } finally {
    run.cpuMs += performance.now() - run.sliceStart;
    if (meter) {
      meter[0] = 0;
      meter[1] = run.cpuMs;
    }
  }
}

/**
 * How a thrown value ends the run. It is read in a slice (its getters are the script's code,
 * and count as its CPU); a limit reached meanwhile (a getter that spins) is what ended it.
 */
function thrownEnd(run: Run, vm: QuickJSContext, handle: QuickJSHandle, atEvaluation = false): ScriptRun {
  const error = slice(run, () => describeError(vm, handle, run.code));
  handle.dispose();
  const stopped = halted(run);
  if (stopped) return finish(run, stopped.end, { error: { message: stopped.message } });
  const end = atEvaluation && error.name === "SyntaxError" ? "syntax_error" : classify(error.message);
  return finish(run, end, { error: withoutName(error) });
}

/**
 * Runs the script's pending jobs until its promise settles, a limit ends it, or it waits on
 * nothing; between turns it sleeps until a call or a sleep settles (or the wall time ends).
 */
async function settleScript(
  run: Run,
  rt: QuickJSRuntime,
  vm: QuickJSContext,
  promise: QuickJSHandle,
  serializer: QuickJSHandle,
): Promise<ScriptRun> {
  try {
    for (;;) {
      const jobs = slice(run, () => rt.executePendingJobs(-1));
      if (jobs.error) jobs.error.dispose();
      const stopped = halted(run);
      if (stopped) return finish(run, stopped.end, { error: { message: stopped.message } });
      const state = vm.getPromiseState(promise);
      if (state.type === "fulfilled") {
        // The result is serialized inside the sandbox (its size counts against the sandbox's
        // memory), by the serializer the prelude captured before the script could replace it.
        const value = state.value;
        const serialized = slice(run, () => vm.callFunction(serializer, vm.undefined, value));
        // A script that broke out of its wrapper may evaluate to a plain value: that is `promise` itself.
        if (!state.notAPromise) value.dispose();
        if (serialized.error) return thrownEnd(run, vm, serialized.error);
        const json = vm.typeof(serialized.value) === "string" ? vm.getString(serialized.value) : "null";
        serialized.value.dispose();
        return resultOf(json, run.limits, (end, extra) => finish(run, end, extra));
      }
      if (state.type === "rejected") return thrownEnd(run, vm, state.error);
      if (run.inFlight === 0)
        return finish(run, "script_timeout", {
          error: {
            message:
              "The script awaits a promise that nothing will settle (no call or sleep is running); it was ended",
          },
        });
      const remaining = run.wallDeadline - performance.now();
      if (remaining <= 0)
        return finish(run, "script_timeout", {
          error: { message: `The script ran longer than its wall time (${run.limits.wallMs} ms)` },
        });
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        run.wake = resolve;
        timer = setTimeout(resolve, remaining);
      });
      clearTimeout(timer);
    }
  } finally {
    promise.dispose();
  }
}

/** A promise for the script; null (and the run ends as over its memory) when the engine has no room for one. */
function newDeferred(run: Run, vm: QuickJSContext): QuickJSDeferredPromise | null {
  try {
    const deferred = vm.newPromise();
    run.open.add(deferred);
    return deferred;
  } catch {
    run.stop ??= new Stop(
      "script_memory",
      `The script used more memory than its limit (${run.limits.memoryBytes} bytes)`,
    );
    return null;
  }
}

function settle(
  run: Run,
  vm: QuickJSContext,
  deferred: QuickJSDeferredPromise,
  json: string | null,
  error?: string,
) {
  // After the run, the runtime's teardown disposes what is still open.
  if (!run.alive) return;
  run.open.delete(deferred);
  if (json !== null) {
    const value = vm.newString(json);
    deferred.resolve(value);
    value.dispose();
  } else {
    const value = vm.newError(error ?? "failed");
    deferred.reject(value);
    value.dispose();
  }
  deferred.dispose();
  run.wake();
}

/** Waits for a free slot: a script's burst of calls reaches the gateway a few at a time. */
async function slot(run: Run): Promise<void> {
  if (run.running < CALL_CONCURRENCY) {
    run.running++;
    return;
  }
  await new Promise<void>((resolve) => run.waiting.push(resolve));
  run.running++;
}

function release(run: Run): void {
  run.running--;
  run.waiting.shift()?.();
}

/** Rejects on the next turn: the handle must reach the script before its deferred is disposed. */
function refuseLater(run: Run, vm: QuickJSContext, deferred: QuickJSDeferredPromise, error: string): void {
  run.inFlight++;
  setImmediate(() => {
    run.inFlight--;
    settle(run, vm, deferred, null, error);
  });
}

/** The sandbox's only ways out, which the prelude wraps: `__call`, `__log`, `__sleep`, and `__names`. */
function installHostFunctions(
  run: Run,
  vm: QuickJSContext,
  functions: Record<string, ScriptHostFunction>,
): void {
  const callHandle = vm.newFunction("__call", (nameHandle, argsHandle) => {
    const name = vm.getString(nameHandle);
    const argsJson = vm.typeof(argsHandle) === "string" ? vm.getString(argsHandle) : "[]";
    const deferred = newDeferred(run, vm);
    if (!deferred) return vm.undefined;
    const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
    if (!fn) {
      refuseLater(run, vm, deferred, `${name} is not a function here`);
      return deferred.handle;
    }
    if (++run.requested > run.limits.maxCalls) {
      run.stop = new Stop(
        "too_many_calls",
        `The script made more than ${run.limits.maxCalls} calls; do fewer per run (or several runs)`,
      );
      // Left pending: the run ends at once, the script never sees this call answered.
      return deferred.handle;
    }
    run.inFlight++;
    void callHost(run, vm, deferred, name, argsJson, fn);
    return deferred.handle;
  });

  const logHandle = vm.newFunction("__log", (levelHandle, lineHandle) => {
    const level = vm.getString(levelHandle);
    const line = vm.typeof(lineHandle) === "string" ? vm.getString(lineHandle) : "";
    const entry = level === "log" ? line : `[${level}] ${line}`;
    if (run.logBytes + entry.length > run.limits.logBytes) {
      run.logsDropped++;
      return;
    }
    run.logBytes += entry.length;
    run.logs.push(entry);
  });

  const sleepHandle = vm.newFunction("__sleep", (msHandle) => {
    const ms = Math.min(MAX_SLEEP_MS, Math.max(0, vm.getNumber(msHandle)));
    const deferred = newDeferred(run, vm);
    if (!deferred) return vm.undefined;
    if (++run.sleeps > MAX_SLEEPS) {
      refuseLater(run, vm, deferred, `sleep: at most ${MAX_SLEEPS} per run`);
      return deferred.handle;
    }
    run.inFlight++;
    setTimeout(() => {
      run.inFlight--;
      settle(run, vm, deferred, "null");
    }, ms).unref();
    return deferred.handle;
  });

  for (const [name, handle] of [
    ["__call", callHandle],
    ["__log", logHandle],
    ["__sleep", sleepHandle],
  ] as const) {
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  }
  const names = vm.newString(JSON.stringify(Object.keys(functions)));
  vm.setProp(vm.global, "__names", names);
  names.dispose();
}

/** One host call: waits for a slot, runs it, records it, and hands the script its answer. */
async function callHost(
  run: Run,
  vm: QuickJSContext,
  deferred: QuickJSDeferredPromise,
  name: string,
  argsJson: string,
  fn: ScriptHostFunction,
): Promise<void> {
  let answer: ScriptCallAnswer;
  const began = performance.now();
  await slot(run);
  // Listed once it reaches the gateway: calls still queued when the run ends never ran.
  const record: ScriptCall = { fn: name, target: "", outcome: "pending", ms: 0 };
  try {
    if (!run.alive) return;
    run.calls.push(record);
    const args = parseArguments(argsJson);
    if (typeof args === "string")
      answer = {
        value: {
          outcome: "rejected",
          reason: "invalid_arguments",
          message: `Arguments of ${name} are ${args}`,
          retryable: false,
          next_actions: [],
        },
        target: "",
        outcome: "rejected",
      };
    else answer = await fn(args);
  } catch {
    // The host functions answer outcomes; a throw is our bug, shown without detail.
    answer = {
      value: { outcome: "unknown", message: "The call failed inside Signpost", next_actions: [] },
      target: record.target,
      outcome: "unknown",
    };
  } finally {
    release(run);
  }
  record.target = answer.target;
  record.outcome = answer.outcome;
  record.ms = Math.round(performance.now() - began);
  run.inFlight--;
  settle(run, vm, deferred, JSON.stringify(answer.value ?? null));
}

/** A call's arguments as the script sent them (JSON), or why they cannot be used. */
function parseArguments(json: string): unknown[] | string {
  if (json.length > MAX_ARGUMENT_BYTES) return `larger than ${MAX_ARGUMENT_BYTES} bytes as JSON`;
  if (jsonNestsDeeperThan(json, MAX_NESTING)) return `nested deeper than ${MAX_NESTING} levels`;
  try {
    const args: unknown = JSON.parse(json);
    return Array.isArray(args) ? args : [];
  } catch {
    return "not JSON";
  }
}

/** The serialized result, checked for size and nesting before the host parses it. */
function resultOf(
  json: string,
  limits: ScriptLimits,
  finish: (end: ScriptEnd, extra?: Partial<ScriptRun>) => ScriptRun,
): ScriptRun {
  if (json.length > limits.resultBytes)
    return finish("script_output_too_large", {
      error: {
        message: `The script's result is ${json.length} bytes as JSON, more than ${limits.resultBytes}; return less (a total, a summary) or fewer fields`,
      },
    });
  if (jsonNestsDeeperThan(json, MAX_NESTING))
    return finish("script_output_too_large", {
      error: {
        message: `The script's result nests arrays or objects deeper than ${MAX_NESTING} levels; return a flatter value`,
      },
    });
  try {
    return finish("completed", { result: JSON.parse(json) as unknown });
  } catch {
    return finish("script_error", { error: { message: "The script's result is not JSON" } });
  }
}

interface DescribedError {
  name: string;
  message: string;
  line?: number;
  column?: number;
}

/** A thrown value as an agent can fix it: message, and where in its own code (first frame there). */
function describeError(vm: QuickJSContext, handle: QuickJSHandle, code: string): DescribedError {
  let dumped: unknown;
  try {
    dumped = vm.dump(handle);
  } catch {
    dumped = undefined;
  }
  const error = (dumped && typeof dumped === "object" ? dumped : { message: String(dumped) }) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
  };
  const name = typeof error.name === "string" ? error.name : "Error";
  const message = String(error.message ?? dumped).slice(0, 500);
  const stack = typeof error.stack === "string" ? error.stack : "";
  const at = new RegExp(`${FILE.replace(".", "\\.")}:(\\d+):(\\d+)`).exec(stack);
  const described: DescribedError = { name, message: `${name}: ${message}` };
  const lines = code.split("\n").length;
  // An unclosed brace is found on the wrapper's last line: it belongs to the script's end. A
  // runtime frame there (the result's serialization) is not the script's own.
  const line = at ? Math.min(Number(at[1]) - WRAPPER_LINES, name === "SyntaxError" ? lines : Infinity) : 0;
  if (at && line >= 1 && line <= lines) {
    described.line = line;
    described.column = Number(at[2]);
  }
  return described;
}

function withoutName({ message, line, column }: DescribedError) {
  return { message, ...(line !== undefined ? { line, column } : {}) };
}

/** The engine's own limits surface as errors: out of memory and stack overflow are the memory limit. */
function classify(message: string): ScriptEnd {
  if (/out of memory|stack overflow/i.test(message)) return "script_memory";
  if (/InternalError: interrupted/.test(message)) return "script_timeout";
  return "script_error";
}
