/**
 * A request's deadline: `signal` aborts with a TimeoutError (as `AbortSignal.timeout` does) when
 * `ms` pass before `clear()`. `AbortSignal.timeout` cannot be cleared: its timer stays armed after
 * the answer is read, and when it fires it builds a DOMException with its stack trace for a
 * request long finished — every connector read paid that 5 s later (~2% of serve's CPU on a
 * `get_context`). Cleared once the answer is read, this one costs a timer that never fires.
 */
export interface RequestDeadline {
  signal: AbortSignal;
  clear(): void;
}

export function requestDeadline(ms: number): RequestDeadline {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    ms,
  );
  // As AbortSignal.timeout's: a pending deadline does not keep the process alive.
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
