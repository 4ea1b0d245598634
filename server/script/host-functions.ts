import type { QuickJSContext, QuickJSDeferredPromise } from "quickjs-emscripten-core";
import { jsonNestsDeeperThan, MAX_NESTING } from "./json-nesting";
import { type Run, Stop } from "./run-state";
import type { ScriptCall, ScriptCallAnswer, ScriptHostFunction } from "./script-run";

/** Longest a single `sleep(ms)` waits, and how many one run may make. */
const MAX_SLEEP_MS = 5_000;
const MAX_SLEEPS = 100;
/** Calls of one run that go to the gateway at the same time; the rest wait their turn. */
const CALL_CONCURRENCY = 4;
/** Arguments of one call, as JSON: far above any tool's own bounds, below what would hurt to parse. */
const MAX_ARGUMENT_BYTES = 256 * 1024;

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
export function installHostFunctions(
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
