import { parentPort } from "node:worker_threads";
import { runScript } from "./run-script";
import type { ScriptCallAnswer, ScriptHostFunction } from "./script-run";
import type { WorkerReply, WorkerRequest } from "./script-worker-protocol";

/**
 * The sandbox's thread: runs scripts with `runScript`, several at once (each its own engine
 * instance; the thread is busy only while one's code runs, not while it awaits a call or a
 * sleep), their functions forwarded to the thread that owns the gateway (each call a message,
 * each answer a message back). A script spinning here costs this thread, never the server's
 * event loop.
 */
const port = parentPort;
if (!port) throw new Error("sandbox-worker runs as a worker thread");

interface Running {
  pending: Map<number, (answer: ScriptCallAnswer) => void>;
  abort: AbortController;
}
const runs = new Map<number, Running>();
let nextCall = 0;

port.on("message", (message: WorkerRequest) => {
  if (message.type === "answer") {
    const run = runs.get(message.runId);
    run?.pending.get(message.callId)?.(message.answer);
    run?.pending.delete(message.callId);
    return;
  }
  if (message.type === "cancel") {
    runs.get(message.runId)?.abort.abort();
    return;
  }
  const running: Running = { pending: new Map(), abort: new AbortController() };
  runs.set(message.runId, running);
  const functions: Record<string, ScriptHostFunction> = {};
  for (const name of message.names)
    functions[name] = (args) =>
      new Promise<ScriptCallAnswer>((resolve) => {
        const callId = nextCall++;
        running.pending.set(callId, resolve);
        port.postMessage({ type: "call", runId: message.runId, callId, name, args } satisfies WorkerReply);
      });
  void runScript(message.code, functions, message.limits, {
    deadline: message.deadline,
    meter: new Float64Array(message.meter),
    signal: running.abort.signal,
  }).then((run) => {
    // Calls still unanswered belong to a run that is over: their answers are dropped.
    runs.delete(message.runId);
    port.postMessage({ type: "done", runId: message.runId, run } satisfies WorkerReply);
  });
});
