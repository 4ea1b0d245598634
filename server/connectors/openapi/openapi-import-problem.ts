/**
 * Why a document cannot become a connector. Every refusal of an import is one of these, with a
 * message a person can act on; a refused import changes nothing.
 */
export type OpenApiProblemCode =
  | "too_large"
  | "unreadable"
  | "invalid_syntax"
  | "not_openapi"
  | "invalid_document"
  | "unresolvable_ref"
  /** Its $refs expand past the cap (a few KB that refer to each other twice per level). */
  | "too_complex"
  /** Reading it took longer than an import may (off the request thread, then stopped). */
  | "import_timeout"
  /** Reading it needed more memory than an import may. */
  | "import_memory"
  /** Nothing in it can become a page or a form. */
  | "nothing_usable"
  | "duplicate_operation_id"
  | "bad_base_url"
  | "unsupported_security"
  | "no_operations"
  | "too_many_operations"
  | "invalid_id"
  | "invalid_roles"
  | "unknown_secret"
  /** A setting the document asks for no header by, or a value a header cannot carry. */
  | "unknown_setting"
  | "needs_confirmation";

export interface OpenApiProblem {
  code: OpenApiProblemCode;
  message: string;
}

export type OpenApiResult<T> = { ok: true; value: T } | { ok: false; problem: OpenApiProblem };

export function problem(code: OpenApiProblemCode, message: string): { ok: false; problem: OpenApiProblem } {
  return { ok: false, problem: { code, message } };
}
