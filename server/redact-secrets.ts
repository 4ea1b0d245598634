/**
 * Redaction of whatever looks secret in text an agent sent (or a system answered), before it is
 * stored or shown: audit rows, the live monitor, logs, page echoes. Support must still recognise
 * the call, so only the secret part goes: `?token=[redacted]` keeps the parameter's name, a card
 * number in a sentence leaves the sentence.
 *
 * Every pattern here runs in time linear in its input: no nested or overlapping quantifiers, each
 * unbounded run anchored by a lookbehind so that it can only start where its run starts, and the
 * parts that must be followed by something bounded. PEM blocks are found by hand, card numbers
 * in card-numbers.ts.
 */

import { types } from "node:util";
import { cardNumberSpans, isCardNumber } from "./card-numbers";
import { isSecretName, secretNameKind } from "./connectors/sdk/secret-names";
import { scrubVaultText } from "./vault-values";

export { isSecretName, secretNameKind };

export const REDACTED = "[redacted]";

// ---------------------------------------------------------------------------------------------
// Values: patterns that are credentials wherever they appear.
// ---------------------------------------------------------------------------------------------

/**
 * Well-known credential prefixes. Stripe's publishable keys (`pk_live_`, `pk_test_`) are public by
 * design, yet redacted too: an agent never needs to send one, and a key pasted as "publishable" is
 * too often the secret one; hiding it costs support nothing.
 */
const PREFIXED_TOKEN = new RegExp(
  `(?<![A-Za-z0-9])(?:${[
    "(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}", // Stripe
    "whsec_[A-Za-z0-9]{16,}", // Stripe webhook signing secrets
    "sk-[A-Za-z0-9_-]{20,}", // OpenAI, Anthropic (sk-proj-…, sk-ant-…)
    "gh[pousr]_[A-Za-z0-9]{16,}", // GitHub tokens
    "github_pat_[A-Za-z0-9_]{20,}", // GitHub fine-grained tokens
    "xox[abposr]-[A-Za-z0-9-]{8,}", // Slack
    "xapp-[A-Za-z0-9-]{8,}", // Slack app-level tokens
    "(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", // AWS access key ids
    "AIza[A-Za-z0-9_-]{30,}", // Google API keys
    "glpat-[A-Za-z0-9_-]{16,}", // GitLab
    "npm_[A-Za-z0-9]{30,}", // npm
    "hf_[A-Za-z0-9]{30,}", // Hugging Face
    "SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}", // SendGrid
    "shp(?:at|ss|ca|pa)_[A-Fa-f0-9]{32}", // Shopify
    "sp_[A-Za-z0-9]{4,16}_[A-Za-z0-9_-]{8,}", // Signpost agent keys
    "lk_[A-Za-z0-9_]{8,}", // the legacy system's tenant keys
  ].join("|")})`,
  "g",
);

/** What every prefixed token contains: `_`, `-` or `.` after its prefix, or AWS's and Google's prefix. */
const PREFIX_START = /[_.-]|AKIA|ASIA|AIza/;

/** A JWT (or any JWS): a base64url JSON header (`eyJ`), a payload and a signature. */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** `Authorization: Bearer …` values, wherever they were pasted. */
const BEARER = /(?<![A-Za-z0-9])bearer\s{1,3}[A-Za-z0-9._~+/=-]{8,}/gi;

/** `Basic <base64 user:password>`: redacted only when it decodes to `something:something`. */
const BASIC = /(?<![A-Za-z0-9])basic\s{1,3}([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi;

/** The password of `scheme://user:password@host`. */
const URL_PASSWORD =
  /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,20}:\/\/[^\s/:@?#]{0,128}:)([^\s/@?#]{1,256})@/g;

/**
 * The name of a `name=value` / `name: value` pair (query parameters, form bodies, headers, JSON
 * and YAML pasted into text), with what separates it from its value. It starts only where a name
 * starts and is at most 64 characters, so each position is looked at a bounded number of times.
 */
const NAME_AND_SEPARATOR =
  /(?<![A-Za-z0-9_.-])([A-Za-z_][A-Za-z0-9_.-]{0,63})(["']?[ \t]{0,3}([=:])[ \t]{0,3}(["']?))/g;

/**
 * What follows `name: ` when the text is a sentence about the credential, not the credential:
 * a word that opens a clause (an instruction, a verb, an article), lowercase, then more words.
 * `password: hunter2`, `token: abc then more` and `SIGNPOST_MASTER_KEY: 6f1c…` stay secrets.
 */
const PROSE_AFTER_COLON =
  /^(?:set|use|see|is|are|was|were|must|should|cannot|can|will|not|the|a|an|it|its|this|that|to|for|from|in|on|with|and|or|no|none|missing|required|unset|empty|invalid|wrong|expired|needed|given)[ \t]+[a-z(<]/;

/** Where an unquoted value ends. */
const VALUE_END = /[\s&"',;<>()[\]{}|`\\#]/;

function redactPem(text: string): string {
  if (!text.includes("-----BEGIN ")) return text;
  let out = "";
  let from = 0;
  for (;;) {
    const begin = text.indexOf("-----BEGIN ", from);
    if (begin === -1) break;
    const labelEnd = text.indexOf("-----", begin + 11);
    if (labelEnd === -1) break;
    const label = text.slice(begin + 11, Math.min(labelEnd, begin + 80));
    if (labelEnd - begin > 80 || !/^[A-Z0-9 ]{0,40}PRIVATE KEY$/.test(label)) {
      out += text.slice(from, begin + 11);
      from = begin + 11;
      continue;
    }
    // A block cut before its END line is still a key: redact to the end.
    const end = text.indexOf("-----END ", labelEnd + 5);
    const close = end === -1 ? -1 : text.indexOf("-----", end + 9);
    out += `${text.slice(from, begin)}${REDACTED}`;
    from = close === -1 ? text.length : close + 5;
  }
  return out + text.slice(from);
}

function looksLikeBasicCredentials(encoded: string): boolean {
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: binary garbage is what this rules out
  return /^[^:\u0000-\u001f]{1,200}:[^\u0000-\u001f]{1,200}$/.test(decoded);
}

function redactNamedValues(text: string): string {
  let out = "";
  let from = 0;
  NAME_AND_SEPARATOR.lastIndex = 0;
  for (let m = NAME_AND_SEPARATOR.exec(text); m; m = NAME_AND_SEPARATOR.exec(text)) {
    const [whole, name = "", , separator, quote = ""] = m;
    const kind = secretNameKind(name);
    // In prose `key: …` is a sentence, `key=…` is still a parameter.
    if (!kind || (kind === "weak" && separator === ":" && !quote)) continue;
    // Nor is a credential's name followed by a sentence about it ("SIGNPOST_MASTER_KEY: set it
    // to the value…"): no secret is a word that opens a clause and has more words after it.
    if (
      separator === ":" &&
      !quote &&
      PROSE_AFTER_COLON.test(text.slice(m.index + whole.length, m.index + whole.length + 16))
    )
      continue;
    let start = m.index + whole.length;
    let open = quote;
    if (!quote) {
      // Markdown puts the name in bold or code (`**api_key:** value`, `` `token`: `value` ``):
      // the value is what follows the closing marks, not the marks themselves.
      const marks = /^[*_`]{1,3}[ \t]{0,3}(`?)/.exec(text.slice(start, start + 8));
      if (marks) {
        start += marks[0].length;
        open = marks[1] ?? "";
      }
    }
    let end = start;
    if (open) {
      const closing = text.indexOf(open, start);
      end = closing === -1 ? text.length : closing;
    } else if (/cookie|authorization/i.test(name)) {
      // A header's value runs to the end of its line (`a=1; b=2`, `Digest username=…`).
      while (end < text.length && text[end] !== "\n" && text[end] !== "\r") end++;
    } else {
      while (end < text.length && !VALUE_END.test(text[end] as string)) end++;
    }
    const value = text.slice(start, end);
    if (value === "" || value.startsWith(REDACTED)) continue;
    out += `${text.slice(from, start)}${REDACTED}`;
    from = end;
    NAME_AND_SEPARATOR.lastIndex = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

function redactCardNumbers(text: string): string {
  const spans = cardNumberSpans(text);
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(from, start)}${REDACTED}`;
    from = end;
  }
  return out + text.slice(from);
}

/** The fewest characters any pattern below matches in a text without `:` or `=` (`lk_` + 8). */
const SHORTEST_MATCH = 11;

/**
 * Replaces what looks secret in a piece of text with "[redacted]": private key blocks, passwords
 * in URLs, bearer and basic credentials, JWTs, well-known token prefixes, values of credential-named
 * parameters and fields (`?token=…`, `"password": "…"`, keeping the name), and card numbers.
 */
export function redactText(text: string): string {
  // Most texts redacted are short words: a log line's keys and values, a table's cells, a row's
  // operation and outcome. Without `:` or `=` (a URL's password, a named value) every pattern
  // below needs at least SHORTEST_MATCH characters (`lk_` and 8, a card's 13 digits, `-----BEGIN `),
  // so such a text can only hold a vault value; the scans cost ~2 µs a text, ~35 µs a log line.
  if (text.length < SHORTEST_MATCH && !text.includes(":") && !text.includes("=")) return scrubVaultText(text);
  let out = redactPem(scrubVaultText(text));
  // Each pattern below needs a fixed part that a plain substring test finds far faster than the
  // pattern's own scan (text without `://` holds no URL password, without `eyJ` no JWT): pages
  // redact every cell they show, the logger every line, the audit every row.
  if (out.includes("://") && out.includes("@"))
    out = out.replace(URL_PASSWORD, (_m, head: string) => `${head}${REDACTED}@`);
  out = out.replace(BEARER, REDACTED);
  out = out.replace(BASIC, (m, encoded: string) => (looksLikeBasicCredentials(encoded) ? REDACTED : m));
  if (out.includes("eyJ")) out = out.replace(JWT, REDACTED);
  if (PREFIX_START.test(out)) out = out.replace(PREFIXED_TOKEN, REDACTED);
  if (out.includes("=") || out.includes(":")) out = redactNamedValues(out);
  return redactCardNumbers(out);
}

/**
 * An error as fields a copy can hold: its name, message and stack, the fields it was given
 * (`code`, `status`), its cause and an AggregateError's errors. Its text is no own enumerable
 * field, so a copy of its entries kept none of it (and a logged error lost what failed).
 */
function errorFields(error: Error): Record<string, unknown> {
  const fields: Record<string, unknown> = { type: error.name, message: error.message, stack: error.stack };
  for (const [key, v] of Object.entries(error)) if (!Object.hasOwn(fields, key)) fields[key] = v;
  // `new Error(m, { cause })` and AggregateError's `errors` are own fields, not enumerable ones.
  if (error.cause !== undefined) fields.cause = error.cause;
  const { errors } = error as { errors?: unknown };
  if (Array.isArray(errors)) fields.errors = errors;
  return fields;
}

/**
 * A copy of `value` with secrets replaced by "[redacted]": strings through `redactText`, numbers
 * that are card numbers, and every non-boolean value under a credential-named key (or under
 * `value`, the field the secret forms send). Keys themselves are redacted as text. An error is
 * copied as its fields (errorFields), its message, stack and causes redacted as text.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 12) return "[…]";
  if (typeof value === "string") return redactText(value);
  if (typeof value === "number" || typeof value === "bigint")
    return Number.isInteger(Number(value)) && isCardNumber(String(value)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
  // Another realm's errors (a vm context's) are errors too.
  if (value instanceof Error || types.isNativeError(value))
    return redactSecrets(errorFields(value as Error), depth + 1);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    // Keys that redact alike get numbered; the counter keeps that linear (a search per key was
    // quadratic: 8,000 keys "password=<i>" froze the server for 20 s).
    let collisions = 1;
    for (const [rawKey, v] of Object.entries(value as Record<string, unknown>)) {
      let key = redactText(rawKey);
      while (key !== rawKey && Object.hasOwn(out, key)) key = `${REDACTED}#${++collisions}`;
      const secretKey = rawKey === "value" || isSecretName(rawKey);
      out[key] =
        secretKey && v !== null && v !== undefined && typeof v !== "boolean"
          ? REDACTED
          : redactSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}
