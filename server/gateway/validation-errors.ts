import type { z } from "zod";

export type ValidationError = { field: string; code: "unknown_field" | "invalid_value"; message: string };

/**
 * Each schema problem named by field, as every face reports it in `validation_errors`. An unknown
 * field says why it is refused: identity and tenant come from the credential, so `tenant_id` or
 * `user_id` in arguments is an attempt to be someone else, not a typo to forgive.
 */
export function zodErrors(error: z.ZodError): ValidationError[] {
  return error.issues.map((issue) => {
    const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : undefined;
    return {
      field: unknownKeys?.join(", ") || issue.path.join(".") || "(input)",
      code: unknownKeys ? "unknown_field" : "invalid_value",
      message: unknownKeys
        ? `Unknown field(s) ${unknownKeys.join(", ")}: identity and tenant come from your credential, never from arguments`
        : issue.message,
    };
  });
}
