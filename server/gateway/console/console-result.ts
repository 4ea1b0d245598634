/** Typed results of console operations: domain failures are values, never exceptions. */
export type ConsoleErrorCode =
  | "invalid_request"
  | "unauthenticated"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "rejected"
  | "too_many_attempts"
  | "temporarily_unavailable";

export type ConsoleFailure = { ok: false; code: ConsoleErrorCode; message: string; details?: unknown };
export type ConsoleResult<T> = { ok: true; value: T } | ConsoleFailure;

export function ok<T>(value: T): ConsoleResult<T> {
  return { ok: true, value };
}

export function fail(code: ConsoleErrorCode, message: string, details?: unknown): ConsoleFailure {
  return details === undefined ? { ok: false, code, message } : { ok: false, code, message, details };
}

/** The one mapping from console error codes to HTTP statuses. */
export const consoleErrorStatus: Record<ConsoleErrorCode, number> = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rejected: 422,
  too_many_attempts: 429,
  temporarily_unavailable: 503,
};
