import type { ScriptLimits } from "./script-limits";
import type { ScriptCallAnswer, ScriptRun } from "./script-run";

/** Server → sandbox thread: run a script, the answer to one of its calls, or stop a run. */
export type WorkerRequest =
  | {
      type: "run";
      runId: number;
      code: string;
      names: string[];
      limits: ScriptLimits;
      /** When the run's wall time ends, epoch ms (counted from the request's arrival). */
      deadline: number;
      /** The CPU meter the server's watchdog reads (see ScriptRunOptions.meter). */
      meter: SharedArrayBuffer;
    }
  | { type: "answer"; runId: number; callId: number; answer: ScriptCallAnswer }
  | { type: "cancel"; runId: number };

/** Sandbox thread → server: a call the script makes, or how the run ended. */
export type WorkerReply =
  | { type: "call"; runId: number; callId: number; name: string; args: unknown[] }
  | { type: "done"; runId: number; run: ScriptRun };
