import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
} from "quickjs-emscripten-core";
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
  /** The engine could not start (not the script's doing): worth retrying. */
  | "sandbox_unavailable";

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
})();`;

class Stop extends Error {
  constructor(
    readonly end: ScriptEnd,
    message: string,
  ) {
    super(message);
  }
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
): Promise<ScriptRun> {
  const started = performance.now();
  const wallDeadline = started + limits.wallMs;
  const calls: ScriptCall[] = [];
  const logs: string[] = [];
  let logBytes = 0;
  let logsDropped = 0;
  let cpuMs = 0;
  let sliceStart = 0;
  let stop: Stop | null = null;
  // Read through a function: the callbacks that set it are invisible to the compiler's narrowing.
  const halted = (): Stop | null => stop;
  let inFlight = 0;
  let sleeps = 0;
  let requested = 0;
  let alive = true;
  let wake: () => void = () => undefined;
  const open = new Set<QuickJSDeferredPromise>();
  const waiting: Array<() => void> = [];
  let running = 0;

  const finish = (end: ScriptEnd, extra: Partial<ScriptRun> = {}): ScriptRun => ({
    end,
    logs,
    logsDropped,
    // A copy: calls still in flight when the run ended keep running in the gateway (and are
    // audited there); here they are what they were when it ended.
    calls: calls.map((c) => ({ ...c, outcome: c.outcome === "pending" ? "unfinished" : c.outcome })),
    cpuMs: Math.round(cpuMs),
    wallMs: Math.round(performance.now() - started),
    ...extra,
  });

  let module: Awaited<ReturnType<typeof newSandboxModule>>;
  try {
    module = await newSandboxModule(limits.memoryBytes);
  } catch {
    return finish("sandbox_unavailable", {
      error: { message: "The script sandbox could not start; try again" },
    });
  }
  let rt: QuickJSRuntime | undefined;
  let ctx: QuickJSContext | undefined;
  let broken = false;
  try {
    rt = module.newRuntime();
    rt.setMemoryLimit(limits.memoryBytes);
    // Deeper than 256 KiB, QuickJS's recursion reaches past the host's own stack.
    rt.setMaxStackSize(256 * 1024);
    rt.setInterruptHandler(() => {
      if (stop) return true;
      const now = performance.now();
      if (cpuMs + (now - sliceStart) > limits.cpuMs)
        stop = new Stop("script_timeout", `The script ran longer than its CPU time (${limits.cpuMs} ms)`);
      else if (now > wallDeadline)
        stop = new Stop("script_timeout", `The script ran longer than its wall time (${limits.wallMs} ms)`);
      return stop !== null;
    });
    const vm = rt.newContext();
    ctx = vm;

    /** Runs the script's code for a while, counting the time as its CPU. */
    const slice = <T>(fn: () => T): T => {
      sliceStart = performance.now();
      try {
        return fn();
      } finally {
        cpuMs += performance.now() - sliceStart;
      }
    };

    const settle = (deferred: QuickJSDeferredPromise, json: string | null, error?: string) => {
      open.delete(deferred);
      if (!alive) return;
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
      wake();
    };

    /** Waits for a free slot: a script's burst of calls reaches the gateway a few at a time. */
    const slot = async () => {
      if (running < CALL_CONCURRENCY) {
        running++;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
    };
    const release = () => {
      running--;
      waiting.shift()?.();
    };

    /** Rejects on the next turn: the handle must reach the script before its deferred is disposed. */
    const refuseLater = (deferred: QuickJSDeferredPromise, error: string) => {
      inFlight++;
      setImmediate(() => {
        inFlight--;
        settle(deferred, null, error);
      });
    };

    const callHandle = vm.newFunction("__call", (nameHandle, argsHandle) => {
      const name = vm.getString(nameHandle);
      const argsJson = vm.typeof(argsHandle) === "string" ? vm.getString(argsHandle) : "[]";
      const deferred = vm.newPromise();
      open.add(deferred);
      const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
      if (!fn) {
        refuseLater(deferred, `${name} is not a function here`);
        return deferred.handle;
      }
      if (++requested > limits.maxCalls) {
        stop = new Stop(
          "too_many_calls",
          `The script made more than ${limits.maxCalls} calls; do fewer per run (or several runs)`,
        );
        // Left pending: the run ends at once, the script never sees this call answered.
        return deferred.handle;
      }
      inFlight++;
      void (async () => {
        let answer: ScriptCallAnswer;
        const began = performance.now();
        await slot();
        // Listed once it reaches the gateway: calls still queued when the run ends never ran.
        const record: ScriptCall = { fn: name, target: "", outcome: "pending", ms: 0 };
        try {
          if (!alive) return;
          calls.push(record);
          let args: unknown[];
          if (argsJson.length > MAX_ARGUMENT_BYTES)
            answer = {
              value: {
                outcome: "rejected",
                reason: "invalid_arguments",
                message: `Arguments of ${name} are larger than ${MAX_ARGUMENT_BYTES} bytes`,
                retryable: false,
                next_actions: [],
              },
              target: "",
              outcome: "rejected",
            };
          else {
            args = JSON.parse(argsJson) as unknown[];
            answer = await fn(Array.isArray(args) ? args : []);
          }
        } catch {
          // The host functions answer outcomes; a throw is our bug, shown without detail.
          answer = {
            value: { outcome: "unknown", message: "The call failed inside Signpost", next_actions: [] },
            target: record.target,
            outcome: "unknown",
          };
        } finally {
          release();
        }
        record.target = answer.target;
        record.outcome = answer.outcome;
        record.ms = Math.round(performance.now() - began);
        inFlight--;
        settle(deferred, JSON.stringify(answer.value ?? null));
      })();
      return deferred.handle;
    });

    const logHandle = vm.newFunction("__log", (levelHandle, lineHandle) => {
      const level = vm.getString(levelHandle);
      const line = vm.typeof(lineHandle) === "string" ? vm.getString(lineHandle) : "";
      const entry = level === "log" ? line : `[${level}] ${line}`;
      if (logBytes + entry.length > limits.logBytes) {
        logsDropped++;
        return;
      }
      logBytes += entry.length;
      logs.push(entry);
    });

    const sleepHandle = vm.newFunction("__sleep", (msHandle) => {
      const ms = Math.min(MAX_SLEEP_MS, Math.max(0, vm.getNumber(msHandle)));
      const deferred = vm.newPromise();
      open.add(deferred);
      if (++sleeps > MAX_SLEEPS) {
        refuseLater(deferred, `sleep: at most ${MAX_SLEEPS} per run`);
        return deferred.handle;
      }
      inFlight++;
      setTimeout(() => {
        inFlight--;
        settle(deferred, "null");
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
    const prelude = slice(() => vm.evalCode(PRELUDE, "prelude.js"));
    if (prelude.error) {
      prelude.error.dispose();
      throw new Error("the script prelude failed");
    }
    prelude.value.dispose();

    // The result is serialized inside the sandbox: its size counts against the sandbox's memory.
    const wrapped = `(async function () {\n${code}\n})().then((v) => { const s = JSON.stringify(v === undefined ? null : v); return s === undefined ? "null" : s; })`;
    const evaluated = slice(() => vm.evalCode(wrapped, FILE));
    const early = halted();
    if (early) {
      if (evaluated.error) evaluated.error.dispose();
      else evaluated.value.dispose();
      return finish(early.end, { error: { message: early.message } });
    }
    if (evaluated.error) {
      const error = describeError(vm, evaluated.error, code);
      evaluated.error.dispose();
      return finish(error.name === "SyntaxError" ? "syntax_error" : classify(error.message), {
        error: withoutName(error),
      });
    }
    const promise = evaluated.value;
    try {
      for (;;) {
        const jobs = slice(() => rt?.executePendingJobs(-1));
        if (jobs?.error) jobs.error.dispose();
        const stopped = halted();
        if (stopped) return finish(stopped.end, { error: { message: stopped.message } });
        const state = vm.getPromiseState(promise);
        if (state.type === "fulfilled") {
          const json = vm.typeof(state.value) === "string" ? vm.getString(state.value) : "null";
          state.value.dispose();
          if (json.length > limits.resultBytes)
            return finish("script_output_too_large", {
              error: {
                message: `The script's result is ${json.length} bytes as JSON, more than ${limits.resultBytes}; return less (a total, a summary) or fewer fields`,
              },
            });
          return finish("completed", { result: JSON.parse(json) as unknown });
        }
        if (state.type === "rejected") {
          const error = describeError(vm, state.error, code);
          state.error.dispose();
          return finish(classify(error.message), { error: withoutName(error) });
        }
        if (inFlight === 0)
          return finish("script_timeout", {
            error: {
              message:
                "The script awaits a promise that nothing will settle (no call or sleep is running); it was ended",
            },
          });
        const remaining = wallDeadline - performance.now();
        if (remaining <= 0)
          return finish("script_timeout", {
            error: { message: `The script ran longer than its wall time (${limits.wallMs} ms)` },
          });
        let timer: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, remaining);
        });
        clearTimeout(timer);
      }
    } finally {
      promise.dispose();
    }
  } catch (error) {
    // An engine abort (its memory exhausted past what it can report): the instance is unusable.
    broken = true;
    const message = error instanceof Error ? error.message : String(error);
    return finish(/memory|abort|unreachable/i.test(message) ? "script_memory" : "script_error", {
      error: {
        message: /memory|abort|unreachable/i.test(message)
          ? `The script used more memory than its limit (${limits.memoryBytes} bytes)`
          : "The sandbox failed while running the script",
      },
    });
  } finally {
    alive = false;
    for (const resolve of waiting.splice(0)) resolve();
    if (!broken) {
      try {
        for (const deferred of open) deferred.dispose();
        ctx?.dispose();
        rt?.dispose();
      } catch {
        // A run that ended mid-flight may hold handles; the whole instance is dropped either way.
      }
    }
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
