/**
 * Payment card numbers in text (a network's range and length, Luhn-valid), for the redaction in
 * redact-secrets.ts. Found by hand, not by one pattern: digit groups in any script, joined by the
 * separators people type, are read through an ASCII view of the text in linear time.
 */

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
export function isCardNumber(digits: string): boolean {
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
    // No network issues fewer than 13 digits, and a run holds no more digits than characters:
    // the short runs of an id (`0f8e6a2c-5b1d-…`) hold no card, and splitting each cost more
    // than the rest of redacting a log line.
    if (run.length < 13) continue;
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

/** The code units `separatorOf` reads as a separator: the view writes them as one of ` .-/`. */
const NON_ASCII_SEPARATORS = new Set([
  0xa0, 0x2007, 0x2009, 0x202f, 0x3000, 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xff0d,
  0xff0e, 0xff0f,
]);

/** Whether a code point is a decimal digit (of any script), remembered: pages repeat their characters. */
const isDigitPoint = new Map<number, boolean>();
function digitPoint(cp: number): boolean {
  let known = isDigitPoint.get(cp);
  if (known === undefined) {
    known = /^\p{Nd}$/u.test(String.fromCodePoint(cp));
    // Bounded: at most the characters of the texts seen.
    if (isDigitPoint.size < 4096) isDigitPoint.set(cp, known);
  }
  return known;
}

/**
 * One pass over the text: its digits (of any script), and whether its card view differs from the
 * text anywhere the scan can see — a digit that is not ASCII, or a separator that is not ASCII
 * right after an ASCII digit (where it could join or end a digit group). Any other character that
 * is not ASCII is `~` in the view, which the scan reads exactly as it reads the character itself:
 * neither a digit nor one of ` .-/`. Where the view makes no difference, the text is scanned as it
 * is, at its own offsets: building the view was a third of redacting a rendered order page, whose
 * `·` and `—` sit beside words, not digits.
 */
function digitScan(text: string): { digits: number; viewMatters: boolean } {
  let digits = 0;
  let viewMatters = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 48 && c <= 57) digits++;
      continue;
    }
    if (NON_ASCII_SEPARATORS.has(c)) {
      const before = text.charCodeAt(i - 1);
      if (before >= 48 && before <= 57) viewMatters = true;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    if (digitPoint(cp)) {
      digits++;
      viewMatters = true;
    }
    if (cp > 0xffff) i++;
  }
  return { digits, viewMatters };
}

/**
 * Where payment card numbers are in a text: [start, end) offsets into the text itself, in order.
 * Any script's digits and separators count (`４１１１ １１１１ …`), read through an ASCII view of it.
 */
export function cardNumberSpans(text: string): Array<[number, number]> {
  // No network issues fewer than 13 digits: a text with fewer holds no card (an amount, a date).
  const { digits, viewMatters } = digitScan(text);
  if (digits < 13) return [];
  if (!viewMatters) return cardRanges(text);
  const { view, at } = cardView(text);
  return cardRanges(view).map(([start, end]) => [at[start] as number, at[end] as number]);
}
