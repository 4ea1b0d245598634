/**
 * A record search over a system whose text filter matches its query as one substring (`LIKE
 * %q%`, as most list endpoints do): the words joined ("wool cap m") miss a record whose text
 * puts anything between them ("Wool Cap (M)"), and a short word alone ("m") is in nearly every
 * text. So: the system's own answer to all the words first; failing that, its answer to one
 * longer word at a time, kept only where the record's own text holds every word as a whole
 * token, so a short word (a size, a grade, a code) tells records apart instead of matching all.
 */

/** The longer words asked of the system alone, at most this many (each is one request). */
const WORDS_ASKED = 3;

/** A word asked alone: shorter ones are substrings of too much text to narrow anything. */
const ASKED_LENGTH = 3;

/** Lower-case tokens of a text (letters and digits of any script), a plain plural folded. */
export function textTokens(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((t) =>
    t.length > 3 && t.endsWith("s") && !t.endsWith("ss") ? t.slice(0, -1) : t,
  );
}

/**
 * Whether the tokens hold the word: a short word only as a whole token ("m" is not in "wool"),
 * a longer one also as a token's start ("ship" in "shipping").
 */
function holds(tokens: readonly string[], word: string): boolean {
  return tokens.some((t) => t === word || (word.length >= ASKED_LENGTH && t.startsWith(word)));
}

/**
 * Words as the records write them: `equivalents` maps a word or two words ("large", "extra
 * large") to the tokens a record may hold instead ("l", "xl"); the original stays an option.
 */
function wordOptions(words: readonly string[], equivalents: Record<string, string[]>): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const pair = `${w} ${words[i + 1] ?? ""}`;
    if (equivalents[pair]) {
      out.push([pair, ...(equivalents[pair] ?? [])]);
      i++;
    } else out.push([w, ...(equivalents[w] ?? [])]);
  }
  return out;
}

/** Whether a text holds the word as holds() says (a short word only whole). */
export function textHoldsWord(text: string, word: string): boolean {
  return holds(textTokens(text), word);
}

/** Whether a record's text holds every word (or one of its equivalents). */
export function holdsEveryWord(
  text: string,
  words: readonly string[],
  equivalents: Record<string, string[]> = {},
): boolean {
  const tokens = textTokens(text);
  return wordOptions(words, equivalents).every((options) =>
    options.some((o) => o.split(" ").every((part) => holds(tokens, part))),
  );
}

/**
 * Records holding every word: `ask(text)` is the system's own search (null or [] when it found
 * none), `textOf(row)` the record's text the words are matched in (name, description, code…).
 * [] when none holds every word: the caller then says so, never a record holding only some.
 */
export async function searchByWords<T>(
  words: readonly string[],
  ask: (text: string) => Promise<T[] | null>,
  textOf: (row: T) => string,
  equivalents: Record<string, string[]> = {},
  /** The caller already asked all the words together and the system found none. */
  wholeAsked = false,
): Promise<T[]> {
  if (!words.length) return [];
  const whole = wholeAsked ? [] : ((await ask(words.join(" "))) ?? []);
  if (whole.length || words.length === 1) return whole;
  const asked = [...new Set(words)]
    .filter((w) => w.length >= ASKED_LENGTH)
    .sort((a, b) => b.length - a.length)
    .slice(0, WORDS_ASKED);
  for (const word of asked) {
    const rows = (await ask(word)) ?? [];
    const every = rows.filter((row) => holdsEveryWord(textOf(row), words, equivalents));
    if (every.length) return every;
  }
  return [];
}

/** A record's own text for holdsEveryWord when no field is known to hold it: its values, one level in. */
export function recordText(row: unknown, depth = 0): string {
  if (typeof row === "string" || typeof row === "number") return String(row);
  if (!row || typeof row !== "object" || depth > 1) return "";
  return Object.values(row as Record<string, unknown>)
    .map((v) => recordText(v, depth + 1))
    .filter(Boolean)
    .join(" ");
}
