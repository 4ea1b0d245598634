import { REDACTED, redactSecrets } from "./redact-secrets";

/** Fields of a log line censored whatever their value, booleans and null included. */
const CENSORED_FIELDS = new Set(["password", "apiKey", "key", "authorization", "cookie", "value", "secret"]);
/** The same one level down (`{ req: { password } }`), `value` excepted. */
const CENSORED_BELOW = ["password", "apiKey", "key", "authorization", "cookie", "secret"];
/** And in a `headers` object one level down (`{ req: { headers: { cookie } } }`). */
const CENSORED_HEADERS = ["authorization", "cookie"];

/**
 * The fields of one log line as they may be written: the audit's redaction (secret-looking
 * values anywhere, credential-named fields), then the fixed places the logger always censored,
 * whatever the value. Those places were pino's `redact` paths (`password`, `*.password`, …,
 * `*.headers.cookie`); pino 10's redaction parsed its paths again for every field of every
 * line (~55 KB allocated per access line), so they are applied here, on the copy the audit's
 * redaction already made, in place.
 */
export function redactLogFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out = redactSecrets(fields) as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (value === undefined) continue; // not written at all
    if (CENSORED_FIELDS.has(key)) {
      out[key] = REDACTED;
      continue;
    }
    if (!value || typeof value !== "object") continue;
    const below = value as Record<string, unknown>;
    for (const name of CENSORED_BELOW) if (Object.hasOwn(below, name)) below[name] = REDACTED;
    const headers = below.headers;
    if (headers && typeof headers === "object")
      for (const name of CENSORED_HEADERS)
        if (Object.hasOwn(headers, name)) (headers as Record<string, unknown>)[name] = REDACTED;
  }
  return out;
}
