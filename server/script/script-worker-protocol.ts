import type { ScriptCallAnswer, ScriptRun } from "./run-script";
import type { ScriptLimits } from "./script-limits";

/** Server → sandbox thread: run a script, or the answer to one of its calls. */
export type WorkerRequest =
  | { type: "run"; runId: number; code: string; names: string[]; limits: ScriptLimits }
  | { type: "answer"; callId: number; answer: ScriptCallAnswer };

/** Sandbox thread → server: a call the script makes, or how the run ended. */
export type WorkerReply =
  | { type: "call"; runId: number; callId: number; name: string; args: unknown[] }
  | { type: "done"; runId: number; run: ScriptRun };
