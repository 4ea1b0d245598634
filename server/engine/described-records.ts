import type { AnyCapability } from "../connectors/sdk/define-capability";
import {
  AGE_WORDS,
  type ChoiceRow,
  choicesFor,
  choicesOfValues,
  namedInWords,
  rowSays,
  wordTokens,
} from "./choice-words";
import { requestWords } from "./request-words";

/**
 * The records a request describes by what they are ("return the mug from my delivered order",
 * "resolve the shipping ticket about headphones"), read from the node's own choice rows, so it
 * works for every connector. Played (issue 23): the words fit two of Alice's eight orders, yet the
 * answer listed all eight (~540 tokens) because only the words right before "order" were read and
 * several fits named none.
 */
export type Described =
  /** One record that can take the change fits every describing word. */
  | { kind: "one"; choice: ChoiceRow; words: string[] }
  /** Several fit (or one, beside a word no record says): the caller lists them and asks. */
  | { kind: "several"; choices: ChoiceRow[]; closed: ChoiceRow[]; words: string[]; unsaid: string[] }
  /** Only records that cannot take the change fit: the caller says those, and why. */
  | { kind: "closed"; closed: ChoiceRow[]; words: string[] };

/**
 * After the record's name, these start what to do with it ("… to urgent", "… for size L",
 * "… because it broke"), never what it is.
 */
const WHAT_TO_DO = new Set(
  "to for into onto as because since so but instead than then until unless".split(" "),
);

/** Words that turn the next one into what the record is not ("not shipped", "never paid"). */
const NEGATIONS = new Set("not no never without cannot".split(" "));

/**
 * Words that sit beside a description without naming a record ("the mug I got", "the ticket
 * about …"): a word no record says is reported only when it could be a name, not one of these.
 */
const FILLER = new Set(
  "about regarding concerning which where when who whose what got get received bought ordered placed sent made has have had was were are been one ones thing item stuff some all any other just really also still yet already there here their its his her them they you these those mine".split(
    " ",
  ),
);

/**
 * The part of a request that asks (what comes before the detail after its one colon: "resolve the
 * shipping ticket: the customer got the parcel" asks about a shipping ticket; "parcel" is the
 * resolution's word). Quoted text is content, never a description (request-words.ts).
 */
export function askPart(request: string): string {
  const text = requestWords(request);
  const colons = [...text.matchAll(/:(?=\s)/g)];
  if (colons.length !== 1) return text;
  const head = text.slice(0, colons[0]?.index ?? 0);
  return head.trim().split(/\s+/).length >= 2 ? head : text;
}

/**
 * What a request says of the record of `capability` among `rows` (the node's choices for the
 * record field): the words that describe it are the request's words anywhere before the record's
 * name and after it up to what to do, less the capability's own words ("return", "resolve"), the
 * words that fill its other fields (their names and fixed values: "urgent", "exchange") and words
 * every row says. Undefined when no such word fits a row, or no row fits them all: the caller
 * answers as before.
 */
export function describedRecords(
  capability: AnyCapability,
  rows: ChoiceRow[],
  request: string,
): Described | undefined {
  if (rows.length < 2) return undefined;
  const field = capability.appliesTo.field ?? "";
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  const skip = wordsOfCapability(capability, field);
  const seq = describingSequence(askPart(request), noun);
  const said = (w: string) => rows.filter((r) => says(r, w)).length;
  const counted = seq.filter((w) => w !== noun && !skip.has(w));
  const words = [...new Set(counted.filter((w) => said(w) > 0 && said(w) < rows.length))];
  if (!words.length) return undefined;
  const fits = rows.filter((r) => words.every((w) => says(r, w)));
  if (!fits.length) return undefined;
  const open = canTake(capability, rows, request);
  const eligible = fits.filter(open);
  const closed = fits.filter((r) => !open(r));
  // A word no record says, beside the description ("the teapot from my delivered order"), may be
  // the name the user meant: said, never dropped while the other words pick.
  const unsaid = [
    ...new Set(
      seq.filter(
        (w, i) =>
          i > 0 &&
          w !== noun &&
          w.length >= 3 &&
          !skip.has(w) &&
          !FILLER.has(w) &&
          said(w) === 0 &&
          [seq[i - 1], seq[i + 1]].some((n) => n !== undefined && (n === noun || words.includes(n))),
      ),
    ),
  ];
  if (!eligible.length) return { kind: "closed", closed, words };
  if (eligible.length === 1 && !unsaid.length && eligible[0])
    return { kind: "one", choice: eligible[0], words };
  return { kind: "several", choices: eligible, closed, words, unsaid };
}

/** Short values longer than this are prose (a description), not what a record is called. */
const VALUE_CAP = 80;
const valueWords = new WeakMap<ChoiceRow, Set<string>>();

/**
 * Whether a row says this word of itself: its own words, a whole value, or a word of any short
 * value ("Acme Corp", "pending_payment", "EUR"): an imported row's facts sit under any key.
 */
function says(r: ChoiceRow, word: string): boolean {
  if (rowSays(r, word)) return true;
  let words = valueWords.get(r);
  if (!words) {
    words = new Set(
      Object.entries(r.row)
        .filter(([k, v]) => k !== "possible" && typeof v === "string" && v.length <= VALUE_CAP)
        .flatMap(([, v]) => wordTokens(String(v).replace(/[_-]/g, " "))),
    );
    valueWords.set(r, words);
  }
  return words.has(word);
}

/**
 * The request's word tokens that may describe the record: every one before its name, and after it
 * those up to the first word that says what to do. Without the name, every word.
 */
function describingSequence(text: string, noun: string): string[] {
  const raw = text.match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
  const out: string[] = [];
  let after = false;
  let negated = false;
  for (const word of raw) {
    const lower = word.toLowerCase();
    if (after && WHAT_TO_DO.has(lower)) break;
    // "my order that has not shipped yet" says what it is not: the next word describes nothing.
    if (NEGATIONS.has(lower) || /n['’]t$/.test(lower)) {
      negated = true;
      continue;
    }
    const [token] = wordTokens(word);
    if (!token) continue;
    if (negated && token !== noun) {
      // "hasn't been paid": the negation reaches past the helper words to "paid".
      negated = FILLER.has(token) || token === "yet" || token === "ever" || token === "even";
      continue;
    }
    negated = false;
    out.push(token);
    if (token === noun) after = true;
  }
  return out;
}

/**
 * Words that say what to do rather than which record: the capability's own (its id, title and
 * synonyms) and those of its other fields (their names, their fixed values).
 */
function wordsOfCapability(capability: AnyCapability, recordField: string): Set<string> {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const t of wordTokens(text.replace(/[_-]/g, " "))) out.add(t);
  };
  // Which end by age is the age reading's (choice-words.ts), never a fact a row says.
  for (const w of Object.keys(AGE_WORDS)) out.add(w);
  add(capability.id);
  add(capability.title);
  for (const s of capability.synonyms) add(s);
  for (const node of capability.nodes)
    for (const [f, schema] of Object.entries(node.fields ?? {})) {
      if (f === recordField) continue;
      add(f);
      for (const r of choicesFor(f, {}, schema)) add(r.value);
    }
  return out;
}

/**
 * Whether a row can take this change, by its own verdict (`possible`): no verdict or "yes", or a
 * list of the capability's own fixed values (the after-sales paths open for an order). When the
 * request names one of those values ("return" → return_refund), the list must hold it: the words
 * already say which path, and an order that cannot take it is no candidate.
 */
function canTake(capability: AnyCapability, rows: ChoiceRow[], request: string): (r: ChoiceRow) => boolean {
  const fixed = new Map<string, string[]>();
  for (const node of capability.nodes)
    for (const [f, schema] of Object.entries(node.fields ?? {})) {
      const values = choicesFor(f, {}, schema).map((r) => r.value);
      if (values.length) fixed.set(f, values);
    }
  const listed = (verdict: string) => verdict.split(/,\s*/);
  const fieldOf = (verdict: string) =>
    [...fixed.entries()].find(([, values]) => listed(verdict).every((v) => values.includes(v)));
  // The fixed value the request names, per field the verdicts list (read once).
  const named = new Map<string, string | undefined>();
  for (const r of rows) {
    const verdict = r.row.possible;
    if (typeof verdict !== "string") continue;
    const of = fieldOf(verdict);
    if (!of || named.has(of[0])) continue;
    named.set(of[0], namedInWords(choicesOfValues(of[1]), askPart(request))?.value);
  }
  return (r) => {
    const verdict = r.row.possible;
    if (verdict === undefined || verdict === "yes") return true;
    if (typeof verdict !== "string") return false;
    const of = fieldOf(verdict);
    if (!of) return false;
    const want = named.get(of[0]);
    return !want || listed(verdict).includes(want);
  };
}
