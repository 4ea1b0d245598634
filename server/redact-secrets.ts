/**
 * Redaction of whatever looks secret in text an agent sent (or a system answered), before it is
 * stored or shown: audit rows, the live monitor, logs, page echoes. Support must still recognise
 * the call, so only the secret part goes: `?token=[redacted]` keeps the parameter's name, a card
 * number in a sentence leaves the sentence.
 *
 * Every pattern here runs in time linear in its input: no nested or overlapping quantifiers, each
 * unbounded run anchored by a lookbehind so that it can only start where its run starts, and the
 * parts that must be followed by something bounded. PEM blocks and card numbers are found by hand.
 */

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

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * The card networks' number ranges, each with the lengths it issues. One number in ten passes
 * Luhn by chance, so Luhn plus "starts with 2–6" took look-alikes for cards: a migration's
 * 14-digit timestamp (`20261130135647_add_sign_in_failures`) is no network's number, since
 * nothing issues 14 digits starting 20. Epoch-millisecond timestamps (1…), USPS tracking numbers
 * (9…) and numbers with a leading zero match no range either.
 */
const CARD_RANGES: ReadonlyArray<readonly [RegExp, number, number]> = [
  [/^4/, 13, 19], // Visa (13, 16, 19; some issue the lengths between)
  [/^(?:5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, 16, 16], // Mastercard
  [/^220[0-4]/, 16, 19], // Mir
  [/^3[47]/, 15, 15], // American Express
  [/^(?:30[0-5]|3095|36|3[89])/, 14, 19], // Diners Club
  [/^35(?:2[89]|[3-8])/, 16, 19], // JCB
  [/^(?:6011|64[4-9]|65)/, 16, 19], // Discover
  [/^62/, 16, 19], // UnionPay
  [/^(?:50|5[6-9]|6)/, 13, 19], // Maestro and the other 6-series
];

/** A payment card number: a network's range and length, and Luhn-valid. */
function isCardNumber(digits: string): boolean {
  return (
    CARD_RANGES.some(
      ([range, min, max]) => digits.length >= min && digits.length <= max && range.test(digits),
    ) && luhn(digits)
  );
}

/**
 * The value of a decimal digit of any script (`４` full-width, `٤` Arabic-Indic, `𝟒` mathematical):
 * Unicode lays each script's digits out as consecutive runs of ten from zero, so the value is the
 * distance to the start of the run, modulo ten (the mathematical digits are five runs in a row).
 */
const digitValues = new Map<string, number | undefined>();
function digitValue(ch: string): number | undefined {
  if (ch >= "0" && ch <= "9") return ch.charCodeAt(0) - 48;
  if (ch < "\u0080") return undefined;
  // Cached: a text of a million such digits costs a lookup each, not a walk back each.
  if (digitValues.has(ch)) return digitValues.get(ch);
  let value: number | undefined;
  if (/^\p{Nd}$/u.test(ch)) {
    let cp = ch.codePointAt(0) as number;
    let steps = 0;
    while (steps < 60 && /^\p{Nd}$/u.test(String.fromCodePoint(cp - 1))) {
      cp--;
      steps++;
    }
    value = steps % 10;
  }
  // Bounded: the cache holds at most the digits and the other characters of the texts seen.
  if (digitValues.size < 4096) digitValues.set(ch, value);
  return value;
}

/** Separators people put between a card's digit groups, written as one ASCII stand-in. */
function separatorOf(ch: string): string | undefined {
  if (" .-/".includes(ch)) return ch;
  if (/^[\u00a0\u2007\u2009\u202f\u3000]$/.test(ch)) return " ";
  if (/^[\u2010-\u2015\u2212\uff0d]$/.test(ch)) return "-";
  if (ch === "\uff0e") return ".";
  if (ch === "\uff0f") return "/";
  return undefined;
}

/**
 * The text as the card scan reads it: every digit as an ASCII digit, every separator as one of
 * ` .-/`, anything else non-ASCII as `~`; `at[i]` is where the i-th character of the view starts
 * in the text (one more entry for the end), so what the scan finds is cut from the text itself.
 */
function cardView(text: string): { view: string; at: number[] } {
  let view = "";
  const at: number[] = [];
  let offset = 0;
  while (offset < text.length) {
    // A run of ASCII is its own view (its digits and separators already are): copied whole, not
    // looked up character by character (that lookup was most of what redacting a page cost).
    let end = offset;
    while (end < text.length && text.charCodeAt(end) < 0x80) at.push(end++);
    if (end > offset) {
      view += text.slice(offset, end);
      offset = end;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(offset) as number);
    const digit = digitValue(ch);
    view += digit !== undefined ? String(digit) : (separatorOf(ch) ?? "~");
    at.push(offset);
    offset += ch.length;
  }
  at.push(offset);
  return { view, at };
}

/**
 * Runs of digit groups joined by one separator (`4111 1111 1111 1111`, `3782-822463-10005`,
 * `4111.1111.1111.1111`), starting only where such a run starts: not inside an id (`ord_4111…`),
 * a decimal or a run already begun. A run may touch letters (`card4111…`, `…1111x`): a digit run
 * of 13 or more inside a word that is Luhn-valid and starts like a card is a card.
 */
const DIGIT_GROUPS = /(?<![0-9_]|[0-9][ ./-])[0-9]+(?:[ ./-][0-9]+)*/g;

/** Where card numbers are in the view: [start, end) pairs of view positions. */
function cardRanges(view: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  DIGIT_GROUPS.lastIndex = 0;
  for (let m = DIGIT_GROUPS.exec(view); m; m = DIGIT_GROUPS.exec(view)) {
    const run = m[0];
    const groups = run.split(/[ ./-]/);
    // Dots and slashes also write decimals and dates (`0.5555…`, `3.14159…`): there a window of
    // several groups needs card-sized groups, and a long group alone counts only first in its run.
    const strict = /[./]/.test(run);
    const starts: number[] = [];
    let position = m.index;
    for (const group of groups) {
      starts.push(position);
      position += group.length + 1;
    }
    for (let i = 0; i < groups.length; i++) {
      let digits = "";
      let found = -1;
      // The longest window of whole groups from i that is a card; at most 19 digits, so bounded.
      for (let j = i; j < groups.length && digits.length + (groups[j] as string).length <= 19; j++) {
        const group = groups[j] as string;
        if (strict && (j > i || i > 0) && (group.length < 3 || group.length > 8)) break;
        if (strict && j > i && ((groups[i] as string).length < 3 || (groups[i] as string).length > 8)) break;
        digits += group;
        if (isCardNumber(digits)) found = j;
      }
      if (found === -1) continue;
      ranges.push([starts[i] as number, (starts[found] as number) + (groups[found] as string).length]);
      i = found;
    }
  }
  return ranges;
}

/** Only ASCII: the text is its own card view (every digit and separator already ASCII). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, controls included
const ALL_ASCII = /^[\u0000-\u007f]*$/;

/** ASCII digits plus every non-ASCII code unit (any of which may be part of a digit): at least the digits. */
function possibleDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c >= 0x80) n++;
  }
  return n;
}

function redactCardNumbers(text: string): string {
  if (!/\p{Nd}{4}|\p{Nd}\D\p{Nd}/u.test(text)) return text;
  // Most text shown or recorded is ASCII: its view is itself, position for position, and building
  // it character by character was most of what redacting a rendered page cost.
  // No network issues fewer than 13 digits: a text with fewer holds no card (an amount, a date).
  if (possibleDigits(text) < 13) return text;
  const ascii = ALL_ASCII.test(text);
  const { view, at } = ascii ? { view: text, at: null } : cardView(text);
  const ranges = cardRanges(view);
  if (ranges.length === 0) return text;
  const offset = (i: number) => (at ? (at[i] as number) : i);
  let out = "";
  let from = 0;
  for (const [start, end] of ranges) {
    out += `${text.slice(from, offset(start))}${REDACTED}`;
    from = offset(end);
  }
  return out + text.slice(from);
}

/**
 * Replaces what looks secret in a piece of text with "[redacted]": private key blocks, passwords
 * in URLs, bearer and basic credentials, JWTs, well-known token prefixes, values of credential-named
 * parameters and fields (`?token=…`, `"password": "…"`, keeping the name), and card numbers.
 */
export function redactText(text: string): string {
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
 * A copy of `value` with secrets replaced by "[redacted]": strings through `redactText`, numbers
 * that are card numbers, and every non-boolean value under a credential-named key (or under
 * `value`, the field the secret forms send). Keys themselves are redacted as text.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 12) return "[…]";
  if (typeof value === "string") return redactText(value);
  if (typeof value === "number")
    return Number.isInteger(value) && isCardNumber(String(value)) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((v) => redactSecrets(v, depth + 1));
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
