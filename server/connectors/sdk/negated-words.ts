/**
 * Which words of a text a negation denies ("hasn't shipped yet", "not paid", "never delivered",
 * "without the lamp", "not shipped or delivered"): read alike from a person's request and from a
 * record's own words (a status "not_started", a subject "Coupon not applied"), so a word a row
 * says only as denied is never what the row affirms. Plain English reading, no connector words;
 * here, below the engine and browse, so a start's words and a search's ("orders not shipped") are
 * read alike.
 */

/** One word of a text, where it stands, and whether a negation denies it. */
export interface ReadWord {
  /** The word as written ("hasn't", "Shipped"). */
  raw: string;
  /** Where it starts in the text. */
  at: number;
  /** A negation itself ("not", "hasn't", "never"). */
  negation: boolean;
  /** A word a negation denies. */
  denied: boolean;
}

const NEGATIONS = new Set("not no never without cannot non neither nor except excluding".split(" "));

/**
 * Words that set the next thing apart when they follow a word ("instead of the office", "rather
 * than the card", "other than high"): the thing after them is what is not meant, as after "not".
 * Played (issue 23): "send it to my home instead of the office" named both labels and took neither.
 * "besides" and "apart from" are left out: they as often mean "as well as".
 */
const APART_AFTER: Record<string, string[]> = { of: ["instead"], than: ["rather", "other"] };

/** "hasn't", "isn’t", and the same typed without the apostrophe ("isnt", "dont", "cant"). */
const CONTRACTED = /n['’]t$|^(?:is|was|has|have|had|does|do|did|are|were|ca|could|wo|would|should|need)nt$/;

/**
 * Words a negation reaches past to the word it denies: "hasn't been paid", "not in transit",
 * "not yet shipped", "not the lamp one", "doesn't have the mug". Any other word is the one denied
 * ("can't I …" denies "I", which describes nothing, never the words after it).
 */
const REACH = new Set(
  "a an the my our your his her their its this these those any some one ones be been being is are was were yet ever even really actually fully quite still in on at of by with from about for into to have has had got contain contains include includes hold holds do does did".split(
    " ",
  ),
);

/** A word, or a mark that ends what a negation reaches (",", "—", a spaced hyphen…). */
const PIECES = /[\p{L}\p{N}]+(?:['’]\p{L}+)?|[,.;:!?()[\]—–]|(?<=\s)-(?=\s)/gu;

/**
 * The words of a text in order, each marked as a negation, denied by one, or neither. A negation
 * denies the first word after those it reaches past, and the next after an "or"/"nor" ("not
 * shipped or delivered"); a mark or any other word ends it.
 */
export function readWords(text: string): ReadWord[] {
  const out: ReadWord[] = [];
  let state: "none" | "reaching" | "denied" = "none";
  let previous = "";
  for (const m of text.matchAll(PIECES)) {
    const raw = m[0];
    if (!/[\p{L}\p{N}]/u.test(raw)) {
      state = "none";
      continue;
    }
    const lower = raw.toLowerCase();
    const at = m.index ?? 0;
    const apart = APART_AFTER[lower]?.includes(previous) === true;
    previous = lower;
    if (NEGATIONS.has(lower) || CONTRACTED.test(lower) || apart) {
      out.push({ raw, at, negation: true, denied: false });
      state = "reaching";
      continue;
    }
    if (state === "reaching" && !REACH.has(lower)) {
      out.push({ raw, at, negation: false, denied: true });
      state = "denied";
      continue;
    }
    if (state === "denied" && (lower === "or" || lower === "nor")) state = "reaching";
    else if (state !== "reaching") state = "none";
    out.push({ raw, at, negation: false, denied: false });
  }
  return out;
}

/**
 * The text with the words a negation denies blanked out (all of them, or those `cut` says), so a
 * matcher that reads words as what a record is never reads "not the lamp one" as the lamp one.
 */
export function withoutDenied(text: string, cut: (w: ReadWord) => boolean = () => true): string {
  let out = text;
  for (const w of readWords(text).reverse())
    if (w.denied && cut(w))
      out = `${out.slice(0, w.at)}${" ".repeat(w.raw.length)}${out.slice(w.at + w.raw.length)}`;
  return out;
}
