/**
 * A failure the legacy service reports on purpose: it becomes
 * `{"error": {"code", "message", "details"?}}` with `status`.
 * Handlers throw it; the pipeline maps it (and stores it for idempotent replays).
 */
export class LegacyError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "LegacyError";
  }

  toBody(): { error: { code: string; message: string; details?: Record<string, unknown> } } {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

/** Missing and other-tenant objects look the same: 404 not_found. */
export function notFound(kind: string, id: string): LegacyError {
  return new LegacyError(404, "not_found", `${kind} ${id} not found`, { kind, id });
}

/** A business rule refused the request (409 + a specific code). */
export function ruleViolation(code: string, message: string, details?: Record<string, unknown>): LegacyError {
  return new LegacyError(409, code, message, details);
}
