import { parentPort } from "node:worker_threads";
import { runScript, type ScriptCallAnswer, type ScriptHostFunction } from "./run-script";
import type { WorkerReply, WorkerRequest } from "./script-worker-protocol";

/**
 * The sandbox's thread: runs one script at a time with `runScript`, its functions forwarded to
 * the thread that owns the gateway (each call a message, each answer a message back). A script
 * spinning here costs this thread, never the server's event loop.
 */
const port = parentPort;
if (!port) throw new Error("sandbox-worker runs as a worker thread");

const pending = new Map<number, (answer: ScriptCallAnswer) => void>();
let nextCall = 0;

port.on("message", (message: WorkerRequest) => {
  if (message.type === "answer") {
    pending.get(message.callId)?.(message.answer);
    pending.delete(message.callId);
    return;
  }
  const functions: Record<string, ScriptHostFunction> = {};
  for (const name of message.names)
    functions[name] = (args) =>
      new Promise<ScriptCallAnswer>((resolve) => {
        const callId = nextCall++;
        pending.set(callId, resolve);
        port.postMessage({ type: "call", runId: message.runId, callId, name, args } satisfies WorkerReply);
      });
  void runScript(message.code, functions, message.limits).then((run) => {
    // Calls still unanswered belong to a run that is over: their answers are dropped.
    pending.clear();
    port.postMessage({ type: "done", runId: message.runId, run } satisfies WorkerReply);
  });
});
