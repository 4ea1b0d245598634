import { wordTable } from "../../word-table";
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

const NEGATIONS = new Set("not no never without cannot non neither nor except excluding avoid".split(" "));

/**
 * Words that set the next thing apart when they follow a word ("instead of the office", "rather
 * than the card", "other than high"): the thing after them is what is not meant, as after "not".
 * Played (issue 23): "send it to my home instead of the office" named both labels and took neither.
 * "besides" and "apart from" are left out: they as often mean "as well as".
 */
const APART_AFTER: Readonly<Record<string, string[]>> = wordTable({
  of: ["instead"],
  than: ["rather", "other"],
  // "anything but home", "anyone but Bella" (review 53b: each took what it refused).
  but: ["anything", "anyone", "anybody", "anywhere", "everything", "everyone", "everybody", "all"],
});

/**
 * Words that take a set whole: a "but" a few words after one sets apart ("all my orders but the
 * cancelled ones", "every ticket but the closed ones"), as right after "all" (review: the orders
 * listing filtered to the cancelled ones it was asked to leave out).
 */
const WHOLE = new Set("all every each everything anything everyone anyone".split(" "));

/** How far after a WHOLE word a "but" still sets apart from it. */
const WHOLE_REACH = 4;

/**
 * What a "but" that sets apart from a whole set goes on with: the thing set apart as a person
 * names it ("but the cancelled ones", "but my mugs"). A verb after it ("but pay with my
 * balance"), a number ("all my orders but 2": which two?) or anything else keeps it a conjunction.
 */
const APART_OPENS = new Set("the my your our his her their this that these those".split(" "));

/**
 * Words that make a clause of their own: either side of a "but" they make it a conjunction
 * ("everything is handled but the charged twice ticket", "everything came fine but the kettle is
 * too loud"), and an order word after it asks to sort ("all open tickets but the urgent ones
 * first"). Review 54 found each of these left out what the user was talking about.
 */
const CLAUSE_WORDS = new Set(
  "is are was were be been being am has have had do does did will would can could should shall may might must first last".split(
    " ",
  ),
);

/**
 * "except", "excluding" (and "other than") set apart only where the clause denies nothing yet:
 * after "no", "nothing", "not", "don't"… they mean "only" ("nothing other than home", "no address except home", "don't send
 * anything except the mug"), and the thing after them is the one meant.
 */
const ONLY_AFTER_NEGATION = new Set(["except", "excluding"]);

/** Words that empty a clause as a negation does, so an "except" after them means "only". */
const EMPTY = new Set("nothing none nobody noone nowhere".split(" "));

/** "hasn't", "isn’t", and the same typed without the apostrophe ("isnt", "dont", "cant"). */
const CONTRACTED = /n['’]t$|^(?:is|was|has|have|had|does|do|did|are|were|ca|could|wo|would|should|need)nt$/;

/**
 * Words a negation reaches past to the word it denies: "hasn't been paid", "not in transit", "not
 * yet shipped", "not the lamp one", "doesn't have the mug", "not mentioning refunds". Any other
 * word is the one denied ("can't I …" denies "I", which describes nothing, never the words after
 * it).
 */
const REACH = new Set(
  "a an the my our your his her their its this these those any some one ones be been being is are was were yet ever even really actually fully quite still in on at of by with from about for into to have has had got contain contains include includes hold holds do does did having containing including holding mention mentions mentioning involving".split(
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
  // The clause so far denies something: an "except" in it then means "only" (ONLY_AFTER_NEGATION).
  let clauseDenies = false;
  // Words read since this clause's last WHOLE word (Infinity: none yet).
  let sinceWhole = Number.POSITIVE_INFINITY;
  const pieces = [...text.matchAll(PIECES)];
  for (const [i, m] of pieces.entries()) {
    const raw = m[0];
    if (!/[\p{L}\p{N}]/u.test(raw)) {
      state = "none";
      clauseDenies = false;
      // A mark ends what a word before it sets apart ("show everything, but urgent first").
      previous = "";
      sinceWhole = Number.POSITIVE_INFINITY;
      continue;
    }
    const lower = raw.toLowerCase();
    const at = m.index ?? 0;
    const apart =
      APART_AFTER[lower]?.includes(previous) === true ||
      (lower === "but" && sinceWhole <= WHOLE_REACH && setsApartAt(pieces, i, sinceWhole));
    sinceWhole = WHOLE.has(lower) ? 0 : sinceWhole + 1;
    const only =
      clauseDenies && (ONLY_AFTER_NEGATION.has(lower) || (lower === "than" && previous === "other"));
    previous = lower;
    if (only) {
      out.push({ raw, at, negation: false, denied: false });
      state = "none";
      continue;
    }
    if (EMPTY.has(lower)) clauseDenies = true;
    if (NEGATIONS.has(lower) || CONTRACTED.test(lower) || apart) {
      clauseDenies = true;
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
 * The "but" at pieces[at], `since` words after a whole set's word, sets apart: it goes on with
 * the thing set apart (APART_OPENS or a number), and no word on either side in its clause makes
 * a clause of its own (CLAUSE_WORDS, or a contraction such as "it's").
 */
function setsApartAt(pieces: readonly RegExpMatchArray[], at: number, since: number): boolean {
  const word = (i: number) => pieces[i]?.[0].toLowerCase() ?? "";
  const next = word(at + 1);
  if (!APART_OPENS.has(next)) return false;
  const clauseWord = (w: string) => CLAUSE_WORDS.has(w) || /['’](?:s|re|ve|ll|d|m)$/.test(w);
  for (let i = at - since; i < at; i++) if (clauseWord(word(i))) return false;
  for (let i = at + 1; i < pieces.length && /[\p{L}\p{N}]/u.test(word(i)); i++)
    if (clauseWord(word(i))) return false;
  return true;
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

/**
 * withoutDenied, where a negation that denies a word `holds` says no choice has (a verb: "don't
 * ship", "do not want", "never deliver") carries on to the first word in the same clause that one
 * has: "don't ship it to my home" does not name home; "don't ship it to the office, send it home"
 * names home (a mark ends the clause). Played: "Don't ship my order to my home" took home.
 */
export function withoutDeniedCarried(text: string, holds: (word: string) => boolean): string {
  const read = readWords(text);
  const carried = new Set<number>();
  for (let i = 0; i < read.length; i++) {
    const w = read[i] as ReadWord;
    if (!w.denied || holds(w.raw)) continue;
    for (let j = i + 1; j < read.length; j++) {
      const next = read[j] as ReadWord;
      const prev = read[j - 1] as ReadWord;
      if (next.negation || CLAUSE_END.test(text.slice(prev.at + prev.raw.length, next.at))) break;
      if (next.denied || TURNS.has(next.raw.toLowerCase())) break;
      if (holds(next.raw)) {
        carried.add(j);
        break;
      }
    }
  }
  let out = withoutDenied(text);
  for (const j of [...carried].reverse()) {
    const w = read[j] as ReadWord;
    out = `${out.slice(0, w.at)}${" ".repeat(w.raw.length)}${out.slice(w.at + w.raw.length)}`;
  }
  return out;
}

/** Words after which a clause says what is meant instead: a denial carries no further. */
const TURNS = new Set("but except excluding instead rather than only just".split(" "));

/** A mark between two words that ends what a negation reaches (as PIECES reads them). */
const CLAUSE_END = /[,.;:!?()[\]—–]|\s-\s/;
