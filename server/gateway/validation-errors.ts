import type { z } from "zod";

export type ValidationError = { field: string; code: "unknown_field" | "invalid_value"; message: string };

/** Names that claim who is acting or for whom: refused with why, not as a typo. */
const IDENTITY_KEY =
  /^(?:tenant|user|agent|org|organi[sz]ation|account|caller|actor|role|as_user|on_behalf_of|acting_as)(?:_?id)?$/i;

/**
 * Each schema problem named by field, as every face reports it in `validation_errors`. An unknown
 * field that names an identity says why it is refused: identity and tenant come from the
 * credential, so `tenant_id` or `user_id` in arguments is an attempt to be someone else, not a
 * typo to forgive. Any other unknown field is just that: telling an agent that sent
 * `entity_type` about credentials only sent it looking for an identity problem it did not have.
 */
export function zodErrors(error: z.ZodError): ValidationError[] {
  return error.issues.map((issue) => {
    const unknownKeys = issue.code === "unrecognized_keys" ? issue.keys : undefined;
    const claimsIdentity = unknownKeys?.some((k) => IDENTITY_KEY.test(k));
    return {
      field: unknownKeys?.join(", ") || issue.path.join(".") || "(input)",
      code: unknownKeys ? "unknown_field" : "invalid_value",
      message: unknownKeys
        ? claimsIdentity
          ? `Unknown field(s) ${unknownKeys.join(", ")}: identity and tenant come from your credential, never from arguments`
          : `Unknown field(s) ${unknownKeys.join(", ")}: not a field of this call (its input schema lists them)`
        : issue.message,
    };
  });
}
