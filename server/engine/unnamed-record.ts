import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import { whenText } from "../connectors/sdk/when-text";
import { POINTING_WORDS } from "../function-words";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import {
  type ChoiceRow,
  candidateText,
  choicesFor,
  namedBeside,
  namedInWords,
  withLifecycle,
  wordTokens,
} from "./choice-words";
import { describedRecords } from "./described-records";
import { everyCovered } from "./every-described";
import { queryClauses } from "./query-clauses";

/**
 * The words a start was given: the request, the records read from them, and (a start's) whether
 * the user's words named a record in this agent's start on it moments before (namedEarlier).
 */
export interface UserWords {
  request?: string;
  fromWords: Record<string, string>;
  /** `wordless`: this start brought no words, so only a start of the same change counts. */
  namedBefore?: (record: string, wordless: boolean) => Promise<boolean>;
}

/**
 * What the check found: `ask`, the record was the agent's pick (null: it may run); `named`, the
 * record sent as an id is the one the request names or describes. A start keeps that as named by
 * the words, so this agent's next start on it by a fragment ("then set it to pending") finds it
 * named (namedEarlier). Set S: the first start came with the ticket's id and words naming it,
 * nothing said the words had named it, and the second start asked.
 */
export interface RecordCheck {
  ask: AskUser | null;
  named?: string;
}

/** What the answer says when the record of a change is the agent's pick among several. */
export interface AskUser {
  field: string;
  /** The record that was sent (the agent's pick): a page offering the user's words names it. */
  record: string;
  message: string;
  /** The record sent and the others (at most ten in all), each with what tells it apart. */
  candidates: string[];
  /**
   * How many other records the message counts, listed or not: a face shows the sent one and a
   * few of these, and says how many more (shown-candidates.ts).
   */
  others: number;
}

/**
 * A change nobody approves runs at once (under the agent's key or the server's) only on a record
 * the user meant: the only one it can be done for, or the one their words named. Otherwise the
 * action waits, and the answer says what runs it: confirm_action, once the user said which. When
 * the record was picked by the agent among several that fit (another of the user's orders would
 * take the same change), this names them so the agent asks the user first; null when the record
 * is unambiguous. Reads the first node's own offer (its choices when no record is named): the
 * same rows the agent was shown.
 */
export async function unnamedRecord(
  capability: AnyCapability,
  adapter: unknown,
  actor: Actor,
  values: Values,
  words: UserWords,
): Promise<RecordCheck> {
  const field = capability.appliesTo.field;
  const first = capability.nodes[0];
  if (!field || !first?.resolve || !first.fields?.[field]) return { ask: null };
  const chosen = values[field];
  if (typeof chosen !== "string" || words.fromWords[field] === chosen) return { ask: null };
  const { [field]: _, ...without } = values;
  const offer = await first.resolve({ adapter, actor, values: without, derived: {} });
  const eligible = choicesFor(field, offer.options ?? {}).filter((r) => possible(r));
  if (eligible.length < 2 || !eligible.some((r) => r.value === chosen)) return { ask: null };
  const inWords = words.request ? namedInWords(eligible, words.request)?.value : undefined;
  if (inWords === chosen) {
    // Named among the records that can take the change, yet maybe not the record the words
    // mean: one that cannot take it may hold their other word (the user meant that one, and
    // the change cannot be done for it), so the user is asked.
    const beside = await namedElsewhere(
      first,
      { adapter, actor, values: without, derived: {} },
      offer,
      field,
      chosen,
      words.request ?? "",
      capability.appliesTo.entity,
      Object.values(without).filter((v): v is string => typeof v === "string"),
    );
    if (beside.length)
      return {
        ask: ask(field, chosen, [...eligible.filter((r) => r.value === chosen), ...beside], "describe"),
      };
    return { ask: null, named: chosen };
  }
  // The records the words describe ("every urgent ticket"), read from the same rows a start's
  // words are (the node's offer and its lookup): the one they fit is named; where they fit
  // several, only those are the ones to ask about, never a record the description excludes.
  const described = words.request
    ? await describedAmong(
        capability,
        first,
        { adapter, actor, values: without, derived: {} },
        offer,
        words.request,
      )
    : undefined;
  if (described?.named.includes(chosen)) return { ask: null, named: chosen };
  // Words (some: with none the agent picked) naming or describing no other record: the record the
  // user's words named in this agent's start on it moments before is named (namedEarlier). Never over words that point
  // elsewhere ("raise the headphones ticket to urgent" sent with another ticket's id).
  const elsewhere =
    (inWords !== undefined && inWords !== chosen) ||
    !!described?.named.some((v) => v !== chosen) ||
    (!!described?.fits.length && !described.fits.includes(chosen));
  // With no words at all, only this agent's start of the same change counts: the same ask made
  // again with the user's answer (set AE: "give the charged twice ticket to Bruno" was refused,
  // Bruno being inactive; the form sent with Bella, the user's pick, asked which ticket).
  if (!elsewhere && (await words.namedBefore?.(chosen, !words.request))) return { ask: null };
  const fitting = described?.fits.length ? eligible.filter((r) => described.fits.includes(r.value)) : [];
  const among = fitting.some((r) => r.value === chosen) ? fitting : [];
  if (described?.fits.length && !among.length) {
    const others = eligible.filter((r) => r.value !== chosen && described.fits.includes(r.value));
    if (others.length)
      return {
        ask: ask(field, chosen, [...eligible.filter((r) => r.value === chosen), ...others], "describe"),
      };
  }
  return { ask: ask(field, chosen, among.length ? among : eligible, among.length ? "fit" : "take") };
}

/**
 * What the answer says: the record sent, and the others the user may mean, told apart by what
 * differs. `how`: the others are all that could take the change ("take"), the ones the user's
 * description fits too ("fit"), or the ones it fits instead of the record sent ("describe").
 */
function ask(field: string, chosen: string, rows: ChoiceRow[], how: "take" | "fit" | "describe"): AskUser {
  const n = rows.length - 1;
  const what = {
    take: `the user's words do not name it and ${n} other records would take this change too`,
    // Only it, yet not named: a word of theirs no record says, or only what it is not.
    fit: n
      ? `the user's words fit ${n} other ${n === 1 ? "record" : "records"} too`
      : "the user's words do not name it for certain",
    describe: `the user's words describe ${n === 1 ? "another record" : `${n} other records`} instead`,
  }[how];
  // The record sent is always among those listed, however far down the node's order it comes.
  const first = rows.slice(0, 10);
  const sent = rows.find((r) => r.value === chosen);
  const shown = sent && !first.includes(sent) ? [...first.slice(0, 9), sent] : first;
  const telling = tellingKeys(shown);
  return {
    field,
    record: chosen,
    // Said as what happened: round 10's model sent the record itself and read "(… was picked)"
    // as the server's guess.
    message: `${chosen} was sent, but ${what}: ask the user whether they mean ${chosen}; on their word, confirm_action runs it${telling.length ? `; they differ in ${telling.join(", ")}` : ""}`,
    candidates: shown.map((r) =>
      [candidateText(r), ...telling.map((k) => `${k}: ${fact(r.row[k])}`)].join(" · "),
    ),
    others: n,
  };
}

/**
 * The records the request describes among the node's rows (its offer and its lookup): `named`,
 * those its words name (the one it fits, or each a described set takes whole: every-described.ts),
 * and `fits`, every one the description fits. Undefined when the words describe none.
 */
async function describedAmong(
  capability: AnyCapability,
  node: AnyCapability["nodes"][number],
  input: Parameters<NonNullable<AnyCapability["nodes"][number]["resolve"]>>[0],
  offer: { options?: Record<string, unknown> },
  request: string,
): Promise<{ named: string[]; fits: string[] } | undefined> {
  const field = capability.appliesTo.field ?? "";
  const looked = (await node.lookup?.(input)) ?? {};
  const rows = withLifecycle(choicesFor(field, { ...offer.options, ...looked }), node.lifecycle);
  const found = describedRecords(capability, rows, request);
  if (!found) return undefined;
  if (found.kind === "one") return { named: [found.choice.value], fits: [found.choice.value] };
  const fits = (found.kind === "several" ? [...found.choices, ...found.closed] : found.closed).map(
    (r) => r.value,
  );
  const every = found.kind === "several" ? everyCovered(capability, rows, request, found) : undefined;
  return { named: every?.map((r) => r.value) ?? [], fits };
}

/**
 * The rows (the offer's and the lookup's, eligible or not) the words name beside `chosen`, read
 * from the clauses that may name its record: those holding a word of the record sent, and those
 * not asking that describe one (a pointing word, the record's kind: "…, it's the one about X").
 * A clause that only says how things stand ("the invoice is sent"), or asks another change of
 * another record, names none to change (review 49: each made a record that cannot take the
 * change, beside the one named, ask).
 */
async function namedElsewhere(
  node: AnyCapability["nodes"][number],
  input: Parameters<NonNullable<AnyCapability["nodes"][number]["resolve"]>>[0],
  offer: { options?: Record<string, unknown> },
  field: string,
  chosen: string,
  request: string,
  entity: string,
  setValues: readonly string[] = [],
): Promise<ChoiceRow[]> {
  const looked = (await node.lookup?.(input)) ?? {};
  const rows = withLifecycle(choicesFor(field, { ...offer.options, ...looked }), node.lifecycle);
  const own = rows.find((r) => r.value === chosen);
  const kind = entity
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/\s+/)
    .pop();
  const holdsOwn = (text: string) => !!own && wordTokens(text).some((t) => own.tokens.has(t));
  const describes = (text: string) =>
    (text.match(/\p{L}+/gu) ?? []).some((w) => DESCRIBING.has(w) || w === kind || w === `${kind}s`);
  // The clauses naming the sent record and those describing one; another ask ("… and close the
  // other one") names its own record, not another meaning of these words.
  const kept = queryClauses(request.toLowerCase()).filter(
    (c) => holdsOwn(c.text) || (c.role !== "request" && describes(c.text)),
  );
  const read = withoutAskWords(kept.length ? kept.map((c) => c.text).join(". ") : request, setValues);
  const beside = namedBeside(rows, chosen, read);
  const other = inAnotherState(rows, own, read, node.lifecycle?.key);
  return [...beside, ...other.filter((r) => !beside.includes(r))];
}

/**
 * The records the words put in a state the sent one is not in, holding every word of theirs the
 * sent one holds: "Delivered kettle order: ship it home" sent on the unpaid kettle order means the
 * delivered one (review 67c: the address of the unpaid one changed at once). A state word is a
 * record's state or a word its lifecycle declares for it; none said, none found.
 */
function inAnotherState(
  rows: ChoiceRow[],
  own: ChoiceRow | undefined,
  words: string,
  key: string | undefined,
): ChoiceRow[] {
  if (!own || !key) return [];
  // Its state's own words ("delivered", "pending payment") and what people call it ("arrived").
  const stateOf = (r: ChoiceRow) =>
    new Set([...(r.stateWords ?? []), ...wordTokens(String(r.row[key] ?? ""))]);
  const states = new Map(rows.map((r) => [r, stateOf(r)]));
  const said = wordTokens(words);
  const stated = said.filter((t) => rows.some((r) => states.get(r)?.has(t)));
  if (!stated.length || stated.some((t) => states.get(own)?.has(t))) return [];
  const shared = said.filter((t) => own.tokens.has(t));
  return rows.filter(
    (r) => r !== own && stated.some((t) => states.get(r)?.has(t)) && shared.every((t) => r.tokens.has(t)),
  );
}

/**
 * The words without what says the change rather than the record: the verb they open with (before
 * a determiner or "it") and the values the change sets. Set DB: "Change the priority of the
 * kettle refund ticket to low", sent on the kettle ticket, was held as maybe meaning the ticket
 * titled "Change delivery address", whose priority is low.
 */
function withoutAskWords(words: string, setValues: readonly string[]): string {
  const values = new Set(setValues.map((v) => v.toLowerCase()));
  // The first word only where it is a verb on what follows ("Change the …", "raise it …"): a
  // first word before a noun names the record ("Late delivery ticket: raise it", review 67c).
  const kept = words
    .trim()
    .replace(/^\p{L}+\s+(?=(?:the|my|our|your|a|an|it|this|that|its|their|his|her)\b)/iu, "")
    .split(/(\s+)/)
    .filter((w) => !values.has(w.toLowerCase().replace(/[^\p{L}\p{N}_-]/gu, "")));
  return kept.join("");
}

/** Words by which a clause describes a record rather than how things stand. */
const DESCRIBING = new Set([...POINTING_WORDS, "which", "one", "about"]);

/** Keys never worth a candidate's line: its id and name (already shown) and the verdict (all "yes"). */
const SHOWN_KEYS = new Set([
  "id",
  "value",
  "possible",
  "name",
  "label",
  "title",
  "subject",
  "items",
  "description",
]);

/**
 * The row keys whose short values differ among the candidates (at most four, in the row's order):
 * what tells them apart, so the user can be asked by status, date or address, not by id alone.
 * Round 3's model, given "5 of the user's records…" and five ids with subjects, re-read each.
 */
function tellingKeys(rows: ChoiceRow[]): string[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.row)))].filter((k) => !SHOWN_KEYS.has(k));
  return keys
    .filter((k) => {
      const values = rows.map((r) => fact(r.row[k]));
      return values.every((v) => v.length <= 40) && new Set(values).size > 1;
    })
    .slice(0, 4);
}

/** A row value as one short fact: scalars as they are, an object by its label or name, else "—". */
function fact(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return whenText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && !Array.isArray(value)) {
    const named = (value as Record<string, unknown>).label ?? (value as Record<string, unknown>).name;
    if (typeof named === "string") return named;
  }
  return "…";
}

/** A row the node offers as possible ("yes", or no verdict given). */
function possible(row: ChoiceRow): boolean {
  const verdict = row.row.possible;
  return verdict === undefined || verdict === "yes";
}

/**
 * unnamedRecord, where the system could not be asked: the agent asks the user rather than a
 * change running at once on a record nobody checked was the only one.
 */
export async function recordToAsk(
  capability: AnyCapability,
  adapter: unknown,
  actor: Actor,
  values: Values,
  words: UserWords,
): Promise<RecordCheck> {
  const found = await catchSystemUnavailable(async () => ({
    check: await unnamedRecord(capability, adapter, actor, values, words),
  }));
  if ("unavailable" in found)
    return {
      ask: {
        field: capability.appliesTo.field ?? "",
        record: String(values[capability.appliesTo.field ?? ""] ?? ""),
        message:
          "Could not check whether other records fit this change: ask the user; on their word, confirm_action runs it",
        candidates: [],
        others: 0,
      },
    };
  return found.check;
}

/** A change whose words only asked to know: held for the user's word, never run on a question. */
export function questionOnly(field: string, record: string): AskUser {
  return {
    field,
    record,
    message: `the user's words ask a question, not for this change, so nothing ran on ${record}: answer them; if they then want it, confirm_action runs it`,
    candidates: [],
    others: 0,
  };
}
