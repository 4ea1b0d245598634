import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { finish, halted, type Run, slice } from "./run-state";
import type { ScriptEnd, ScriptRun } from "./script-run";

/** The script is wrapped in one line above it: reported lines are moved back by this much. */
const WRAPPER_LINES = 1;
export const FILE = "script.js";

/**
 * How a thrown value ends the run. It is read in a slice (its getters are the script's code,
 * and count as its CPU); a limit reached meanwhile (a getter that spins) is what ended it.
 */
export function thrownEnd(
  run: Run,
  vm: QuickJSContext,
  handle: QuickJSHandle,
  atEvaluation = false,
): ScriptRun {
  const error = slice(run, () => describeError(vm, handle, run.code));
  handle.dispose();
  const stopped = halted(run);
  if (stopped) return finish(run, stopped.end, { error: { message: stopped.message } });
  const end = atEvaluation && error.name === "SyntaxError" ? "syntax_error" : classify(error.message);
  return finish(run, end, { error: withoutName(error) });
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
