/**
 * Which field names and query parameters hold credentials whatever their value looks like: the
 * gateway's redaction uses it on text and arguments, a connector's pages on the fields a system
 * answers with (`api_key`, `signing_secret` shown as "[redacted]", table cells included).
 */

/** Words that name a credential on their own (`token`, `client_secret`, `X-Amz-Signature`). */
const STRONG_WORDS = new Set([
  "token",
  "secret",
  "secrets",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "credential",
  "credentials",
  "cookie",
  "cookies",
  "signature",
  "authorization",
  "jwt",
  "bearer",
  "otp",
  "cvv",
  "cvv2",
  "cvc",
]);

/** One word of such a name written as one (`accesstoken`, `apikey`, `x-api-key` → `xapikey`). */
const STRONG_COMPOUND =
  /(password|passwd|secret|credential|cookie|signature|authorization|apikey|accesskey|privatekey|secretkey|signingkey|masterkey|token$|sessionid$|sessiontoken|cardnumber$|ccnumber$|creditcard)/;

/**
 * Words that name a credential as a field or a query parameter (`key=`, `sig=`, `session=`) but
 * are ordinary words in a sentence ("press any key: …"), so free text needs a stronger name.
 */
const WEAK_WORDS = new Set(["key", "auth", "session", "private", "sig", "pin", "pan"]);

/** `…_key` names that are references, not credentials. */
const NOT_SECRET_BEFORE_KEY = new Set([
  "idempotency",
  "action",
  "sort",
  "public",
  "primary",
  "foreign",
  "partition",
  "cache",
  "dedupe",
  "dedup",
  "lookup",
  "group",
  "row",
  "map",
  "object",
  "request",
  "state",
]);
const NOT_SECRET_AFTER_KEY = new Set(["prefix", "id", "name", "names", "count", "type", "hash", "hint"]);
/** What turns a weak word into a credential's name: `session_id`, `auth_code`, `private_key`. */
const QUALIFIERS = new Set(["id", "key", "code", "value", "data", "hash"]);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * `strong` for names that hold a credential wherever they appear, `weak` for names that do as a
 * field or query parameter only, `null` for everything else (`idempotency_key`, `max_tokens`).
 */
export function secretNameKind(name: string): "strong" | "weak" | null {
  if (name.length > 100) return null;
  // A pure function of the name, asked for every name in every text redacted (a page asks for
  // the same few dozen field names on every render): remembered, within a bound.
  const known = kinds.get(name);
  if (known !== undefined) return known;
  const kind = kindOf(name);
  if (kinds.size >= MAX_REMEMBERED) kinds.clear();
  kinds.set(name, kind);
  return kind;
}

const kinds = new Map<string, "strong" | "weak" | null>();
/** Names remembered at most (each at most 100 characters): then forgotten all at once. */
const MAX_REMEMBERED = 5_000;

function kindOf(name: string): "strong" | "weak" | null {
  const parts = words(name);
  if (parts.length === 0) return null;
  const joined = parts.join("");
  if (parts.some((p) => STRONG_WORDS.has(p) || STRONG_COMPOUND.test(p)) || STRONG_COMPOUND.test(joined))
    return "strong";
  if (parts.length === 1) return WEAK_WORDS.has(joined) ? "weak" : null;
  for (const [i, part] of parts.entries()) {
    const before = parts[i - 1] ?? "";
    const after = parts[i + 1] ?? "";
    if (part === "card" && /^(number|num|no|nr)$/.test(after)) return "strong";
    // `license_key`, `client_key`; not `idempotency_key` or `key_prefix`.
    if (part === "key" && !NOT_SECRET_BEFORE_KEY.has(before) && !NOT_SECRET_AFTER_KEY.has(after))
      return "strong";
    // `session_id`, `auth_code`, `pin_code`; not `session_count` or `private_notes`.
    if (WEAK_WORDS.has(part) && part !== "key" && QUALIFIERS.has(after)) return "strong";
  }
  return null;
}

/** Whether a field of this name holds a credential (`password`, `api_key`, `card_number`, `key`). */
export function isSecretName(name: string): boolean {
  return secretNameKind(name) !== null;
}
