import type { AnyCapability } from "../connectors/sdk/define-capability";
import { readWords, withoutDenied } from "../connectors/sdk/negated-words";
import { eventStem, stampedEvent } from "../connectors/sdk/record-events";
import { FUNCTION_WORDS } from "../function-words";
import {
  type ChoiceRow,
  choicesFor,
  choicesOfValues,
  namedInWords,
  rowSays,
  wordTokens,
} from "./choice-words";
import { datingWords, dayOf, isDayWord, justMadeAsToday, MADE_WORDS } from "./day-words";
import { describingSequence, statePhrases, WHAT_TO_DO } from "./describing-sequence";
import { requestWords } from "./request-words";
import { whatToDoWords } from "./what-to-do-words";
import { cannot, whyPicked } from "./why-picked";

/**
 * The records a request describes by what they are ("return the mug from my delivered order",
 * "resolve the shipping ticket about headphones"), read from the node's own choice rows, so it
 * works for every connector. Played (issue 23): the words fit two of Alice's eight orders, yet the
 * answer listed all eight (~540 tokens) because only the words right before "order" were read and
 * several fits named none.
 */
export type Described =
  /** One record that can take the change fits every describing word (`why`: with a negation). */
  | { kind: "one"; choice: ChoiceRow; words: string[]; why?: string }
  /** Several fit (or one, beside a word no record says): the caller lists them and asks. */
  | {
      kind: "several";
      choices: ChoiceRow[];
      closed: ChoiceRow[];
      words: string[];
      unsaid: string[];
      /** Every row states whether it went through each denied event: the negation ruled out exactly. */
      stated?: true;
    }
  /** Only records that cannot take the change fit: the caller says those, and why. */
  | { kind: "closed"; closed: ChoiceRow[]; words: string[] };

/**
 * Words beside a description that name no record ("the mug I got"): a word no record says is
 * reported only when it could be a name. With function-words.ts, read as the request is.
 */
const FILLER = new Set(
  wordTokens(
    `${FUNCTION_WORDS.join(" ")} ${MADE_WORDS.join(" ")} regarding concerning when yet already got get received sent one thing item stuff all other his her mine`,
  ),
);

/** The words a capability says of what it does (its description and when to use it). */
function purposeWords(capability: AnyCapability): Set<string> {
  return new Set(wordTokens(`${capability.description} ${capability.trigger.use}`));
}

/**
 * The part of a request that asks (what comes before the detail after its one colon: "resolve the
 * shipping ticket: the customer got the parcel" asks about a shipping ticket; "parcel" is the
 * resolution's word). Quoted text is content, never a description (request-words.ts). Given the
 * rows it is read against, the words it denies that a row affirms are left out: "not the lamp
 * one" never names the lamp one.
 */
export function askPart(request: string, rows: ChoiceRow[] = []): string {
  const text = askedText(request);
  if (!rows.length) return text;
  return withoutDenied(text, (w) => wordTokens(w.raw).some((t) => rows.some((r) => affirms(r, t))));
}

/**
 * Whether the request denies a word this row affirms and some other row does not ("the tee one
 * that isn't delivered", and the tee one is delivered; "unshipped", and it is shipped): a record
 * its words name that way is not named, the words contradict it. Read up to the first word that
 * says what to do: "… to home, not office" denies the new value, not the record.
 */
export function deniedOf(request: string, row: ChoiceRow, rows: ChoiceRow[]): boolean {
  const read = readWords(askedText(request));
  const end = read.findIndex((w) => WHAT_TO_DO.has(w.raw.toLowerCase()));
  const tokens = read
    .slice(0, end < 0 ? read.length : end)
    .flatMap((w) => wordTokens(w.raw).map((t) => (w.denied ? t : undone(t, rows))));
  return tokens.some((t) => t && affirms(row, t) && rows.some((r) => !affirms(r, t)));
}

/** "unshipped" → "shipped", where no row says the word itself and some row affirms the rest. */
function undone(token: string, rows: ChoiceRow[]): string | undefined {
  if (token.length < 5 || !token.startsWith("un") || rows.some((r) => says(r, token))) return undefined;
  const rest = token.slice(2);
  return rows.some((r) => affirms(r, rest)) ? rest : undefined;
}

function askedText(request: string): string {
  const text = requestWords(justMadeAsToday(request)).replace(POINTED_QUESTION, "$1");
  const colons = [...text.matchAll(/:(?=\s)/g)];
  if (colons.length !== 1) return text;
  const head = text.slice(0, colons[0]?.index ?? 0);
  return head.trim().split(/\s+/).length >= 3 ? head : text;
}

/**
 * A question about a record named before it ("…, has it shipped yet?", "… — is it paid?"): its
 * words are what is asked, never what the record is: "My lamp order, has it shipped yet?" read
 * "shipped" as describing the order, which the lamp order contradicted, and another one answered.
 * Only after the words that name it (a request opening "Can they refund …" asks), and never one
 * that names it ("…, is it the kettle one?").
 */
const POINTED_QUESTION =
  /([,;.!?—–]\s*)(?:and\s+|but\s+|so\s+)?(?:has|have|is|are|was|were|did|does|do|will|would|can|could)\s+(?:it|they|this|that|these|those)\b(?!\s+(?:the|a|an|my|your|our|their|one|ones)\b)[^,;.!?]*\??/gi;

/**
 * What a request says of the record of `capability` among `rows` (the node's choices for the
 * record field): the words that describe it are the request's words anywhere before the record's
 * name and after it up to what to do, less the capability's own words ("return", "resolve"), the
 * words that fill its other fields (their names and fixed values: "urgent", "exchange"), unless
 * they sit in the record's name phrase ("every urgent ticket": what-to-do-words.ts), and words
 * every row says. A word the request denies ("hasn't shipped", "not paid", "unshipped") keeps the
 * rows that do not affirm it; one no row affirms, or every row does, changes nothing. Undefined
 * when no such word fits a row, or no row fits them all: the caller answers as before.
 *
 * A row's events (its node's declared lifecycle, its `<event>_at` stamps: record-events.ts) say
 * what it went through: a delivered order shipped though its row says "delivered". Where a row
 * states no such event, a negation keeps what it cannot rule out, never proof. Either way, where
 * the negation is what leaves one record (the other words alone fit more that can take the
 * change), that record is taken only when a person approves the change (or it only reads), with
 * the negation in its why; for a change nobody approves it is offered as the one candidate to ask
 * about, never named — named records are what lets such a change run at once.
 */
export function describedRecords(
  capability: AnyCapability,
  rows: ChoiceRow[],
  request: string,
): Described | undefined {
  if (rows.length < 2) return undefined;
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  const said = (w: string) => rows.filter((r) => says(r, w)).length;
  const skip = whatToDoWords(capability, askedText(request), (w) => rows.some((r) => says(r, w)));
  const affirmed = (w: string) => rows.filter((r) => affirms(r, w)).length;
  // A day word describes the record only where it dates it ("placed today"), not when to act.
  const dating = datingWords(request);
  const seq = describingSequence(askedText(request), noun, statePhrases(rows))
    .filter((e) => !isDayWord(e.token) || dating.has(e.token))
    .map((e) => {
      const rest = e.denied ? undefined : undone(e.token, rows);
      return rest ? { token: rest, denied: true } : e;
    });
  const counted = seq.filter((e) => e.token !== noun && !skip.has(e.token) && !e.verb);
  const telling = (n: number) => n > 0 && n < rows.length;
  const words = [...new Set(counted.filter((e) => !e.denied).map((e) => e.token))].filter((w) =>
    telling(said(w)),
  );
  const nots = [...new Set(counted.filter((e) => e.denied).map((e) => e.token))].filter((w) =>
    telling(affirmed(w)),
  );
  if (!words.length && !nots.length) return undefined;
  const described = rows.filter((r) => words.every((w) => says(r, w)));
  const kept = described.filter((r) => !nots.some((w) => affirms(r, w)));
  // Every row the other words fit is what the user says it is not ("the not paid lamp one", and
  // the lamp one is paid): that is said, and the rows are asked about, never one picked.
  const against = !kept.length && words.length ? nots.map((w) => `not ${w}`) : [];
  const fits = against.length ? described : kept;
  if (!fits.length) return undefined;
  const open = canTake(capability, rows, request);
  const eligible = fits.filter(open);
  const closed = fits.filter((r) => !open(r));
  const shown = [...words, ...(against.length ? [] : nots.map((w) => `not ${w}`))];
  // A word no record says, beside the description ("the teapot from my delivered order"), may be
  // the name the user meant: said, never dropped while the other words pick. A denied word is no
  // name the user meant, nor one the capability says of what it does (set M: "the shipping
  // difference on my backpack order" asked which order for "difference", its description's word).
  const doing = purposeWords(capability);
  const describes = (e: { token: string; denied: boolean } | undefined) =>
    !!e && !e.denied && (e.token === noun || words.includes(e.token));
  const unsaid = [
    ...new Set([
      ...seq
        .filter(
          (e, i) =>
            i > 0 &&
            !e.denied &&
            !e.predicate &&
            e.token !== noun &&
            e.token.length >= 3 &&
            !skip.has(e.token) &&
            !FILLER.has(e.token) &&
            !doing.has(e.token) &&
            said(e.token) === 0 &&
            (describes(seq[i - 1]) || describes(seq[i + 1])),
        )
        .map((e) => e.token),
      ...against,
    ]),
  ];
  if (!eligible.length) return { kind: "closed", closed, words: shown };
  const [only] = eligible;
  // A day reaches further back than the person's own day may (their zone is unknown): where it
  // fits other records too, even ones that cannot take the change, the user is asked which.
  const dayFuzzy = words.some(isDayWord) && described.length > 1;
  if (only && eligible.length === 1 && !unsaid.length && !dayFuzzy) {
    // A negation alone never names the record of a change nobody approves: its reading has no
    // sense of what the denial belongs to ("not the one I haven't paid for", "I never said it was
    // unpaid", "— no wait, the paid one"), and a review ran such words on the excluded record.
    const byNegation = described.filter(open).length > 1;
    const approved = capability.policy.approval === "always" || capability.policy.effect === "read";
    if (!byNegation || approved)
      return {
        kind: "one",
        choice: only,
        words,
        ...(nots.length ? { why: whyNot(rows, fits, only, words, nots) } : {}),
      };
  }
  const stated = nots.length > 0 && nots.every((w) => rows.every((r) => went(r, w) !== undefined));
  return { kind: "several", choices: eligible, closed, words: shown, unsaid, ...(stated ? { stated } : {}) };
}

/** Short values longer than this are prose (a description), not what a record is called. */
const VALUE_CAP = 80;
const valueWords = new WeakMap<ChoiceRow, Set<string>>();
const deniedWords = new WeakMap<ChoiceRow, Set<string>>();

/** A row's short string values (not its verdict), as words: "pending_payment" → "pending payment". */
function shortValues(r: ChoiceRow): Array<[string, string]> {
  return Object.entries(r.row)
    .filter(([k, v]) => k !== "possible" && typeof v === "string" && v.length <= VALUE_CAP)
    .map(([k, v]) => [k, String(v).replace(/[_-]/g, " ")]);
}

/**
 * Whether a row says this word of itself: its own words, a whole value, or a word of any short
 * value ("Acme Corp", "pending_payment", "EUR"): an imported row's facts sit under any key.
 */
export function says(r: ChoiceRow, word: string): boolean {
  if (rowSays(r, word) || r.stateWords?.has(word) || went(r, word) === true || dayOf(r, word) === true)
    return true;
  let words = valueWords.get(r);
  if (!words) {
    words = new Set(shortValues(r).flatMap(([, v]) => wordTokens(v)));
    valueWords.set(r, words);
  }
  return words.has(word);
}

/**
 * Whether the words that describe the record contradict this row: a word another row says and
 * this one does not. Round 25: "Exchange the mug from my kettle order for a Logo Tee in size S"
 * named the tee-and-mug order by the replacement's words; its tee's exchange went to approval.
 */
export function contradicts(
  capability: AnyCapability,
  rows: ChoiceRow[],
  request: string,
  row: ChoiceRow,
): boolean {
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  const skip = whatToDoWords(capability, askedText(request), (w) => rows.some((r) => says(r, w)));
  const dating = datingWords(request);
  return describingSequence(askedText(request), noun, statePhrases(rows)).some(
    (e) =>
      !e.denied &&
      !e.verb &&
      e.token !== noun &&
      !skip.has(e.token) &&
      !FILLER.has(e.token) &&
      (!isDayWord(e.token) || dating.has(e.token)) &&
      !says(row, e.token) &&
      rows.some((r) => r !== row && says(r, e.token)),
  );
}

/**
 * Whether a row says this word as what it is, not only denied in its own words ("not_started",
 * "Coupon not applied"): "the task that hasn't started" fits the not_started one.
 */
function affirms(r: ChoiceRow, word: string): boolean {
  const event = went(r, word) ?? dayOf(r, word);
  if (event !== undefined) return event;
  if (!says(r, word)) return false;
  let denied = deniedWords.get(r);
  if (!denied) {
    const texts = [...r.names, ...shortValues(r).map(([, v]) => v)];
    denied = new Set(texts.flatMap((t) => readWords(t).flatMap((w) => (w.denied ? wordTokens(w.raw) : []))));
    deniedWords.set(r, denied);
  }
  return !denied.has(word);
}

/**
 * Whether the record went through the event this word names (record-events.ts: a delivered
 * order shipped), or did not; undefined when its row states no such event.
 */
function went(r: ChoiceRow, word: string): boolean | undefined {
  return r.events?.get(eventStem(word));
}

/**
 * Why a record was taken where the words deny something: the facts the positive words matched,
 * then each denied word with what the row says in its place ('not "shipped" (status paid)'), then
 * the records that fit too but cannot take the change.
 */
function whyNot(
  rows: ChoiceRow[],
  fits: ChoiceRow[],
  choice: ChoiceRow,
  words: string[],
  nots: string[],
): string {
  const denied = nots.map((w) => `not "${w}"${inPlaceOf(rows, choice, w)}`).join(", ");
  const base = words.length ? whyPicked(fits, choice, words) : undefined;
  if (base) {
    const [head, ...rest] = base.split("; ");
    return [`${head}, ${denied}`, ...rest].join("; ");
  }
  const others = fits
    .filter((r) => r !== choice)
    .slice(0, 2)
    .map((r) => `${r.value} fits too but ${cannot(r) ?? "is not open to this change"}`);
  return [`fits ${denied}`, ...(others.length ? others : ["the only one that fits"])].join("; ");
}

/** What the row says under the key where another row says the denied word: " (status paid)". */
function inPlaceOf(rows: ChoiceRow[], choice: ChoiceRow, word: string): string {
  for (const r of rows) {
    if (r === choice || !affirms(r, word)) continue;
    // An id that holds the word ("ord_paid") says nothing of the record's state.
    const at = shortValues(r).find(
      ([k, v]) => k !== "id" && !k.endsWith("_id") && wordTokens(v).includes(word),
    );
    const mine = at ? choice.row[at[0]] : undefined;
    if (at && typeof mine === "string" && mine) return ` (${at[0]} ${mine.slice(0, 40)})`;
  }
  // Said by a timestamp: the choice's own, empty ("shipped_at none").
  const stamp = Object.keys(choice.row).find((k) => stampedEvent(k) === eventStem(word));
  return stamp && !choice.row[stamp] ? ` (${stamp} none)` : "";
}

/**
 * Whether a row can take this change, by its own verdict (`possible`): no verdict or "yes", or a
 * list of the capability's own fixed values (the after-sales paths open for an order). When the
 * request names one of those values ("return" → return_refund), the list must hold it: the words
 * already say which path, and an order that cannot take it is no candidate.
 */
export function canTake(
  capability: AnyCapability,
  rows: ChoiceRow[],
  request: string,
): (r: ChoiceRow) => boolean {
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
    const values = choicesOfValues(of[1]);
    named.set(of[0], namedInWords(values, askPart(request, values))?.value);
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
