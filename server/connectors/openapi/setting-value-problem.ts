import { CONTROL } from "./openapi-http-client";

/** The longest value a connector setting (a header sent with every request) may hold. */
export const MAX_SETTING_VALUE = 500;

/** Why a value cannot be a header setting, or null: it is sent as a header with every request. */
export function settingValueProblem(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_SETTING_VALUE)
    return `needs a value of 1-${MAX_SETTING_VALUE} characters`;
  // A CR/LF would forge another header; fetch refuses any control character.
  if (CONTROL.test(value)) return "cannot contain a control character (a header value is one line)";
  return null;
}
