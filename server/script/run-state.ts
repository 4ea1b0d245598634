import type { QuickJSDeferredPromise, QuickJSRuntime } from "quickjs-emscripten-core";
import type { ScriptLimits } from "./script-limits";
import type { ScriptCall, ScriptEnd, ScriptRun } from "./script-run";

/** Why a run stopped early (a limit, a cancel): the end it answers and the words for the agent. */
export class Stop extends Error {
  constructor(
    readonly end: ScriptEnd,
    message: string,
  ) {
    super(message);
  }
}

/** The mutable state of one run, shared by its host functions, its slices of CPU and its loop. */
export interface Run {
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
export const halted = (run: Run): Stop | null => run.stop;

export function finish(run: Run, end: ScriptEnd, extra: Partial<ScriptRun> = {}): ScriptRun {
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

/** The engine's memory and stack caps, and the interrupt that ends a run past its CPU or wall time. */
export function limitRuntime(run: Run, rt: QuickJSRuntime): void {
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
export function slice<T>(run: Run, fn: () => T): T {
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
