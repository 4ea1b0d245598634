import type { StatusLifecycle } from "../connectors/sdk/record-events";
import { whenText } from "../connectors/sdk/when-text";
import { type ChoiceRow, NAME_KEYS, rowSays as ownWords, rowAge, wordTokens } from "./choice-words";
import { dayOf } from "./day-words";
import { inSentence } from "./in-sentence";
import { questionClauses } from "./query-clauses";

/**
 * Why the user's words picked this record, in a few words for the answer: the facts of the row
 * the words matched ("status open, team shipping"), its age when they asked by age, and, for
 * records that nearly fit, why they were not taken ("<id> is older but status pending"). Played:
 * a record taken from the words with no reason, then refused ("already urgent"), left the model
 * unsure whether the pick or the record was wrong. Undefined when the words matched no fact.
 */
export function whyPicked(
  rows: ChoiceRow[],
  choice: ChoiceRow,
  words: string[],
  age?: "oldest" | "newest",
): string | undefined {
  const matched = [...new Set(words)].filter((w) => rowSays(choice, w));
  // A day word ("today") is said by the row's creation time: shown with how long ago it was.
  const dated = matched.some((w) => dayOf(choice, w)) ? rowAge(choice) : undefined;
  const facts = [...factsOf(choice, matched), ...(dated ? [`created ${whenText(dated)}`] : [])];
  if (!facts.length && !age) return undefined;
  // Its time with how long ago: "created 2026-12-04" beside "the oldest" read as a contradiction
  // to round 22's model (the only open shipping ticket left was a new one), and it re-listed them.
  const created = age ? rowAge(choice) : undefined;
  const when = created ? whenText(created) : undefined;
  const said = [...facts, ...(when ? [`created ${when}`] : [])].join(", ");
  // The oldest of one is the only one that fits: said so, not as an age it was picked by.
  const alone =
    age && matched.length > 0 && rows.filter((r) => matched.every((w) => rowSays(r, w))).length === 1;
  const head = alone
    ? `the only one with ${said}`
    : age
      ? `the ${age}${said ? ` with ${said}` : ""}`
      : `fits ${said}`;
  const near = (age ? passedOverByAge(rows, choice, matched, age) : passedOver(rows, choice, matched)).slice(
    0,
    2,
  );
  return near.length ? `${head}; ${near.join("; ")}` : `${head}; the only one that fits`;
}

/**
 * Where the picked record stands ("status delivered"), when the request asks a question about it
 * beside what it asks done ("Where is my backpack order? I want to return it"): the change is
 * started, and its answer answers the question too, with no read of its own. The state is the
 * one its node's lifecycle declares; undefined when none, or no question names the record.
 */
export function whereItStands(
  choice: ChoiceRow,
  lifecycle: StatusLifecycle | undefined,
  request: string,
  entity: string,
): string | undefined {
  const state = lifecycle ? choice.row[lifecycle.key] : undefined;
  if (!lifecycle || typeof state !== "string" || !state) return undefined;
  const noun = wordTokens(entity)[0] ?? "";
  const asked = questionClauses(request.toLowerCase()).some((q) => wordTokens(q).includes(noun));
  return asked ? `${lifecycle.key} ${state.slice(0, 60)}` : undefined;
}

/** Whether a row says this word of itself, its creation time included ("today"). */
function rowSays(row: ChoiceRow, word: string): boolean {
  return ownWords(row, word) || dayOf(row, word) === true;
}

/**
 * The row's facts holding the matched words: a name, or a phrase (a description's first words),
 * quoted; any other value by its key. A phrase is quoted only for a word no fact before it said
 * (round 24: "fits subject 'Coupon not applied'" left out the SAVE5 its description holds, and
 * the model opened the ticket to check).
 */
function factsOf(row: ChoiceRow, matched: string[]): string[] {
  const out: string[] = [];
  const said = new Set<string>();
  for (const [key, value] of Object.entries(row.row)) {
    if (typeof value !== "string" || key === "possible") continue;
    const named = NAME_KEYS.includes(key);
    const phrase = !named && value.includes(" ");
    const own = named || phrase ? wordTokens(value) : [value.toLowerCase()];
    const hits = matched.filter((w) => own.includes(w));
    if (!hits.length || (phrase && hits.every((w) => said.has(w)))) continue;
    for (const w of hits) said.add(w);
    out.push(named || phrase ? `${key} "${value.slice(0, 60)}"` : `${key} ${value}`);
  }
  return out.slice(0, 4);
}

/** What a row says where the picked one matched a word it lacks: "status pending". */
function differs(row: ChoiceRow, chosen: ChoiceRow, matched: string[]): string | undefined {
  const lacking = matched.find((w) => !rowSays(row, w));
  if (!lacking) return undefined;
  const key = Object.keys(chosen.row).find((k) => {
    const v = chosen.row[k];
    return typeof v === "string" && (v.toLowerCase() === lacking || wordTokens(v).includes(lacking));
  });
  const theirs = key ? row.row[key] : undefined;
  return key && typeof theirs === "string" ? `${key} ${theirs.slice(0, 40)}` : `not "${lacking}"`;
}

/**
 * The row's own verdict on this change, when it says it cannot take it ("already urgent"), as a
 * clause for any answer that names the row: the one reading of a verdict (described-answer.ts).
 */
export function cannot(row: ChoiceRow): string | undefined {
  const verdict = row.row.possible;
  // A verdict that lists what the row can take (after-sales paths: "return_refund") is no
  // clause: "… fits too but return_refund" read as nonsense.
  if (typeof verdict === "string" && /^[\w-]+(?:,\s*[\w-]+)*$/.test(verdict) && verdict !== "yes")
    return `only ${verdict} ${verdict.includes(",") ? "are" : "is"} possible`;
  // A verdict is its own sentence ("The order has …"): here it is the clause after "but", and
  // its first clause is enough ("the ticket is closed"), cut at a word, never inside one.
  return typeof verdict === "string" && verdict !== "yes" ? inSentence(firstClause(verdict)) : undefined;
}

/** How long a verdict's clause may be in another answer. */
const CLAUSE_CHARS = 80;

function firstClause(verdict: string): string {
  const clause = (verdict.split(/;\s/)[0] ?? "").trim();
  if (clause.length <= CLAUSE_CHARS) return clause;
  const cut = clause.slice(0, CLAUSE_CHARS);
  return `${cut.slice(0, cut.lastIndexOf(" ") > 0 ? cut.lastIndexOf(" ") : CLAUSE_CHARS)}…`;
}

/** Rows the same words fit that were passed over: they cannot take the change. */
function passedOver(rows: ChoiceRow[], chosen: ChoiceRow, matched: string[]): string[] {
  if (!matched.length) return [];
  return rows
    .filter((r) => r !== chosen && matched.every((w) => rowSays(r, w)))
    .map((r) => `${r.value} fits too but ${cannot(r) ?? "is not open to this change"}`);
}

/** Rows older (or newer) than the pick that were passed over, each with the reason. */
function passedOverByAge(
  rows: ChoiceRow[],
  chosen: ChoiceRow,
  matched: string[],
  age: "oldest" | "newest",
): string[] {
  const at = rowAge(chosen) ?? "";
  const beyond = (r: ChoiceRow) => {
    const t = rowAge(r) ?? "";
    return age === "oldest" ? t < at : t > at;
  };
  // Near ones only: those the words fit but for one word, or whole but closed to the change.
  const near = (r: ChoiceRow) => matched.filter((w) => !rowSays(r, w)).length <= 1;
  return rows
    .filter((r) => r !== chosen && beyond(r) && near(r))
    .sort((a, b) => (age === "oldest" ? -1 : 1) * String(rowAge(a)).localeCompare(String(rowAge(b))))
    .flatMap((r) => {
      const why = differs(r, chosen, matched) ?? cannot(r);
      return why ? [`${r.value} is ${age === "oldest" ? "older" : "newer"} but ${why}`] : [];
    });
}
