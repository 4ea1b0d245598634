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
  /** The request was cancelled (the client went away): the script was stopped. */
  | "cancelled"
  /** The engine could not start (not the script's doing): worth retrying. */
  | "sandbox_unavailable"
  /** Every sandbox slot stayed taken for as long as the run could wait: worth retrying later. */
  | "sandbox_busy";

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
