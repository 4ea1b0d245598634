import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten-core";
import { jsonNestsDeeperThan, MAX_NESTING } from "./json-nesting";
import { finish, halted, type Run, slice } from "./run-state";
import { thrownEnd } from "./script-errors";
import type { ScriptLimits } from "./script-limits";
import type { ScriptEnd, ScriptRun } from "./script-run";

/**
 * Runs the script's pending jobs until its promise settles, a limit ends it, or it waits on
 * nothing; between turns it sleeps until a call or a sleep settles (or the wall time ends).
 */
export async function settleScript(
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
