import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { installHostFunctions } from "./host-functions";
import { finish, halted, limitRuntime, type Run, Stop, slice } from "./run-state";
import { newSandboxModule } from "./sandbox-module";
import { FILE, thrownEnd } from "./script-errors";
import type { ScriptLimits } from "./script-limits";
import type { ScriptHostFunction, ScriptRun } from "./script-run";
import { settleScript } from "./settle-script";

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
