import type { BrowseBackend } from "../connectors/sdk/browse-backend";
import { type FilterChoice, type RouteDefinition, takesEmailAddress } from "../connectors/sdk/define-route";
import { code } from "../connectors/sdk/markdown";
import { type ReadWord, readWords } from "../connectors/sdk/negated-words";
import { eventStem, stampedEvent } from "../connectors/sdk/record-events";
import { addressFilters, localPartChoices } from "./address-words";
import { filterName, NOT_A_NAME, tokens } from "./filter-tokens";
import { noneChoice, noneSaid, withoutNoneSaid } from "./none-named";
import { reachedWhere } from "./reached-where";
import { readChoices } from "./read-choices";
import { ASKING, CONNECTING, FRAMING, STOP, words } from "./route-words";
import { wentThrough } from "./went-through";

/**
 * The filters a search's words name on the listing it opens: an enumerated value the listing
 * declares ("open"), or the label of a record its choice filter offers ("shipping" → the team
 * `shipping` for `?team_id=`). Words that name a filter value are never the text filter: Sam's
 * "open tickets team shipping oldest first" searched the tickets' text for "team shipping" and
 * found none, though "shipping" is a team the listing filters by.
 */
export interface NamedFilters {
  /** `key=value` pairs to add to the listing's URI, one value per filter. */
  params: string[];
  /** The filters as the answer says them ("team = Shipping"), in the order applied. */
  shown: string[];
  /** Words (after `words()`) that named a filter or one of its values: never the text filter. */
  used: Set<string>;
  /**
   * One markdown line per word that names values of two filters, or two records of one ("jo" in
   * two requesters' addresses): neither is applied, nothing is guessed.
   */
  ambiguous: string[];
  /**
   * Declared values the words deny ("not delivered" → status delivered), or the others of a filter
   * the words name two values of ("high or urgent"): left out of the rows (left-out-rows.ts).
   */
  excluded: Excluded[];
  /**
   * Words (after `words()`) a negation denies that no filter, value or event reads, and that are
   * no record's own words with their negation ("code not applied"): "not about login".
   * Never the text filter, which finds rows holding a word, never rows without it (issue 23: it
   * listed the one row the words said not to); the rows holding them are left out where the
   * listing is whole (without-denied-words.ts).
   */
  denied: Set<string>;
}

/**
 * One enumerated filter's values left out of the rows: those the words deny (`said`: the words
 * that denied them), or, with `kept`, every value but the several the words name (`kept`, in the
 * order named; `said`: how they were named).
 */
export interface Excluded {
  key: string;
  values: string[];
  said: string[];
  kept?: string[];
  /** The state named, where `kept` is every state from it on (reached-where.ts). */
  reached?: string;
}

/** One event-time filter the words name: its parameter, as said back, and the words that named it. */
interface Timed {
  param: string;
  shown: string;
  words: string[];
  denied: boolean;
}

/**
 * The event-time filters the query's words name (`shipped_at` for "shipped", "shipping"): `none`
 * where the word is denied ("not shipped"), else `any`.
 */
function eventTimes(route: RouteDefinition, read: ReadWord[], skip: (key: string) => boolean): Timed[] {
  const out: Timed[] = [];
  for (const [key, spec] of Object.entries(route.filters ?? {})) {
    const event = spec === "event time" && !skip(key) ? stampedEvent(key) : undefined;
    const hits = event ? read.filter((w) => !w.negation && eventStem(w.raw) === event) : [];
    const first = hits[0];
    // "shipped but not delivered" names two; "shipped, not shipped" says nothing.
    if (!first || hits.some((w) => w.denied !== first.denied)) continue;
    const value = first.denied ? "none" : "any";
    out.push({
      param: `${key}=${value}`,
      shown: `${key} = ${value}`,
      words: hits.flatMap((w) => tokens(w.raw)),
      denied: first.denied,
    });
  }
  return out;
}

/** The words that name a value: a label's own words, not "the" or "all" (GitHub's `state=all`). */
function namingWords(label: string): string[] {
  return [...new Set(tokens(label))].filter((w) => !STOP.has(w) && !FRAMING.has(w) && !ASKING.has(w));
}

/**
 * How a value the words named is said back: the shortest of people's words for it that named it
 * and do not hold the value's own ("gloss (shiny coat)"; "gloss finish" says no more than
 * `gloss`), the first the connector lists among equals, else its own label.
 */
function saidAs(value: string, hits: ReadonlyArray<{ choice: FilterChoice; words: string[] }>): string {
  const own = namingWords(value);
  const theirs = hits
    .filter((h) => h.choice.value === value && h.choice.label !== value)
    .filter((h) => !own.length || !own.every((w) => h.words.includes(w)))
    .sort((a, b) => a.words.length - b.words.length)[0];
  return theirs?.choice.label ?? hits.find((h) => h.choice.value === value)?.choice.label ?? value;
}

/** Words that set what follows apart from what is asked for (negations aside: readWords). */
const SETS_APART = ["except", "excluding", "besides", "other than", "apart from", "instead of"];

/** Whether a negation, or words that set apart, stand before `at` in `q`. */
function apartBefore(q: string, read: readonly ReadWord[], at: number): boolean {
  if (read.some((w) => w.negation && w.at < at)) return true;
  const before = ` ${q
    .slice(0, at)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  return SETS_APART.some((phrase) => before.includes(` ${phrase} `));
}

/** A line for each word naming several of one filter's records: which, and that none is applied. */
function sharedWordLines(
  key: string,
  hits: ReadonlyArray<{ choice: FilterChoice; words: string[] }>,
): string[] {
  const shared = [...new Set(hits.flatMap((h) => h.words))].filter(
    (w) => hits.filter((h) => h.words.includes(w)).length > 1,
  );
  return shared.map((w) => {
    const values = hits.filter((h) => h.words.includes(w)).map((h) => h.choice.value);
    const listed = values.slice(0, 5).map(code).join(", ");
    return `${code(w)} names ${values.length} ${filterName(key)}s (${listed}${values.length > 5 ? ", …" : ""}): not applied; add the one meant (${code(`?${key}=`)}).`;
  });
}

/** Labels of records read per search: a system with thousands of teams is not matched word by word. */
const MAX_CHOICES = 500;

/**
 * The filters `q` names on `route`. A choice filter's records are read only when some word is
 * `unexplained` (neither naming the listing, a filter, nor one of its declared values), once per
 * search; their labels are matched on the words not naming the listing only, so a team called
 * "Support" never turns "support tickets" into a team filter, and never where the words set
 * something apart ("not assigned to Sara": a negation denies one word, so the name after it would
 * be the opposite filter). Within one filter the longest label named wins ("shipping eu" over
 * "shipping"); two values of one declared filter ("open or pending") leave the API's filter off and
 * keep their rows where the listing is whole (left-out-rows.ts), unless the words set values
 * apart ("other than high or urgent"); one word naming values of two filters, or two records of
 * one, applies neither and says so. An address filter's records are named by the words before
 * their `@` (localPartChoices), and the filter is set first, as a whole address sets it.
 */
export async function namedFilters(
  backend: BrowseBackend,
  route: RouteDefinition,
  q: string,
  unexplained: ReadonlySet<string>,
  skip: (key: string) => boolean,
): Promise<NamedFilters> {
  // A word the query denies ("orders not shipped") names no value: `status=shipped` is its opposite.
  // "no owner" asks for the filter's none: its "no" sets nothing after it apart.
  const nones = new Map(
    Object.entries(route.filters ?? {}).flatMap(([key, spec]) => {
      const said = typeof spec === "object" && "choices" in spec ? noneSaid(q, key) : null;
      return said ? [[key, said] as const] : [];
    }),
  );
  const read = readWords(withoutNoneSaid(q, [...nones.values()]));
  const denied = new Set(read.filter((w) => w.denied).flatMap((w) => tokens(w.raw)));
  // Words that set values apart before them ("not assigned to Sara", "other than high or urgent"):
  // a value after them is never applied as the one meant. A negation denies one word only
  // ("assigned"), so a record's name after it would be taken as the filter: its opposite.
  const setApart = (named: readonly string[]) => {
    const first = read.find((w) => tokens(w.raw).some((t) => named.includes(t)));
    return !!first && apartBefore(q, read, first.at);
  };
  const said = new Set(tokens(q).filter((w) => !denied.has(w)));
  const used = new Set<string>();
  const named = new Map<string, { choice: FilterChoice; words: string[] }[]>();
  const timed = eventTimes(route, read, skip);
  const addressed = addressFilters(route, q, skip);
  // Words a record's label named: the next choice filter's records are still read for them, so
  // a word naming records of two filters is said (below) whichever filter was read first.
  const byRecord = new Set<string>();
  for (const t of [...timed, ...addressed]) for (const w of t.words) used.add(w);
  // The negation itself is read here (applied, or said not to be): never a word to search for,
  // unless the word right after it is text no filter reads (textNegations, below).
  const negations = denied.size
    ? new Set(read.flatMap((w) => (w.negation ? tokens(w.raw) : [])).filter((t) => !used.has(t)))
    : new Set<string>();
  for (const t of negations) used.add(t);
  // Declared values first: a choice filter's records are read only for a word they leave.
  const specs = Object.entries(route.filters ?? {}).sort(
    ([, a], [, b]) => Number(!Array.isArray(a)) - Number(!Array.isArray(b)),
  );
  for (const [key, spec] of specs) {
    if (spec === "free text" || spec === "event time" || spec === "email address") continue;
    let none: { choice: FilterChoice; words: string[] } | null = null;
    // The filter's own name ("team") is a word about the listing, whichever value follows it;
    // an address filter's ("requester") only where it is set: else it names the rows' field.
    const own = tokens(filterName(key));
    if (!takesEmailAddress(spec)) for (const w of own) used.add(w);
    let choices: readonly FilterChoice[];
    let among: ReadonlySet<string>;
    if ("choices" in spec) {
      const set = skip(key) || addressed.some((t) => t.param.startsWith(`${key}=`));
      const saidNone = set ? undefined : nones.get(key);
      none = saidNone ? await noneChoice(saidNone, () => readChoices(spec, backend)) : null;
      if (none) for (const w of [...own, ...none.words]) used.add(w);
      if (set || (!none && ![...unexplained].some((w) => !used.has(w) || byRecord.has(w)))) continue;
      const read = ((await readChoices(spec, backend)) ?? []).slice(0, MAX_CHOICES);
      choices = spec.emailAddresses ? localPartChoices(read) : read;
      among = new Set([...unexplained].filter((w) => !denied.has(w)));
    } else {
      const declared = spec.map((v) => ({ value: v, label: v }));
      among = said;
      // Every value the listing declares is a word about the listing, named once or not.
      for (const v of declared) for (const w of [...words(v.value), ...tokens(v.value)]) used.add(w);
      // The words people use for a value name it too ("waiting on the customer" → pending); theirs
      // are used only where they name it (below).
      const phrases = Object.entries(route.valueWords?.[key] ?? {}).flatMap(([value, said]) =>
        spec.includes(value) ? said.map((label) => ({ value, label })) : [],
      );
      choices = [...declared, ...phrases];
    }
    if (skip(key)) continue;
    const hits = choices
      .filter((c) => !NOT_A_NAME.test(c.value))
      .map((c) => ({ choice: c, words: namingWords(c.label) }))
      .filter((c) => c.words.length > 0 && c.words.length <= 4 && c.words.every((w) => among.has(w)))
      .filter((c) => !("choices" in spec) || !setApart(c.words))
      .concat(none ? [none] : []);
    // "shipping eu" names the team "Shipping EU", not also "Shipping".
    const longest = hits.filter(
      (h) =>
        !hits.some(
          (o) => o !== h && o.words.length > h.words.length && h.words.every((w) => o.words.includes(w)),
        ),
    );
    // Declared values of the same words ("price", "-price"): the plain one, a direction prefix
    // aside. Two records of the same words (two addresses "jo…") are both named: said below.
    const plain = longest.filter(
      (h) =>
        "choices" in spec ||
        !longest.some((o) => o !== h && o.words.join(" ") === h.words.join(" ")) ||
        /^[A-Za-z0-9_ ]+$/.test(h.choice.value),
    );
    // One value named twice ("gloss, shiny coat") is one value, said back in the fewest of
    // people's words that named it ("shiny coat", not "painted with a shiny coat"). Its words
    // are all the words that named it.
    const distinct = plain
      .filter((h, i) => plain.findIndex((o) => o.choice.value === h.choice.value) === i)
      .map((h) => ({
        choice: { ...h.choice, label: saidAs(h.choice.value, hits) },
        words: [...new Set(plain.filter((o) => o.choice.value === h.choice.value).flatMap((o) => o.words))],
      }));
    for (const h of plain) for (const w of h.words) used.add(w);
    if ("choices" in spec) for (const h of plain) for (const w of h.words) byRecord.add(w);
    if (plain.length) for (const w of own) used.add(w);
    if (distinct.length) named.set(key, distinct);
  }
  // A value whose words all lie inside another filter's longer value yields to it: "paid with a
  // voucher" names how it was paid (a method's phrase), not a status `paid` (set K; its words are
  // used there).
  const every = [...named].flatMap(([key, hits]) => hits.map((h) => ({ key, words: h.words })));
  for (const [key, hits] of named) {
    const kept = hits.filter(
      (h) =>
        !every.some(
          (o) =>
            o.key !== key && o.words.length > h.words.length && h.words.every((w) => o.words.includes(w)),
        ),
    );
    if (kept.length) named.set(key, kept);
    else named.delete(key);
  }
  // A word that names values of two filters: neither filter is taken from it.
  const owners = new Map<string, Set<string>>();
  for (const [key, hits] of named)
    for (const h of hits) for (const w of h.words) owners.set(w, new Set([...(owners.get(w) ?? []), key]));
  const ambiguous: string[] = [];
  for (const [w, keys] of owners) {
    if (keys.size < 2) continue;
    const names = [...keys].map((k) => `${/^[aeiou]/i.test(k) ? "an" : "a"} ${filterName(k)}`);
    ambiguous.push(
      `${code(w)} names ${names.slice(0, -1).join(", ")} and ${names.at(-1)}: not applied; add the one meant (${[...keys].map((k) => code(`?${k}=`)).join(" or ")}).`,
    );
  }
  // A word a value the API filters by names ("delivered" → `status=delivered`) is that filter,
  // over every page; an event time narrows one page here, so it is for what no value says.
  const byValue = new Set([...named.values()].flat().flatMap((h) => h.words));
  const times = timed.filter((t) => t.denied || !t.words.some((w) => byValue.has(w)));
  const params: string[] = [...addressed, ...times].map((t) => t.param);
  const shown: string[] = [...addressed, ...times].map((t) => t.shown);
  // A denied word that names a declared value, and no event a row times: the value is left out
  // of the rows (left-out-rows.ts), or said not to be. Played: "my orders not yet delivered"
  // answered "cannot leave a value out" and the model filtered all eight rows by hand.
  const excluded: Excluded[] = [];
  for (const [key, spec] of specs) {
    if (!Array.isArray(spec) || skip(key)) continue;
    const said = [...denied].filter((w) => !timed.some((t) => t.words.includes(w)));
    const denying = spec.filter((v) => !NOT_A_NAME.test(v) && tokens(v).some((t) => said.includes(t)));
    const values = spec.filter((v) => denying.includes(v) || wentThrough(route, key, denying, v));
    if (values.length && values.length < spec.length)
      excluded.push({ key, values, said: said.filter((w) => values.some((v) => tokens(v).includes(w))) });
  }
  for (const [key, hits] of named) {
    for (const h of hits) for (const w of h.words) used.add(w);
    const [only, other] = hits;
    if (!only || only.words.some((w) => (owners.get(w)?.size ?? 0) > 1)) continue;
    // Several values of one declared filter ("high or urgent"): the API takes one at a time, so
    // the rows of the others are left out where the listing is whole (left-out-rows.ts). Played:
    // "the high or urgent tickets" listed every ticket, and the model filtered them by eye.
    const declared = route.filters?.[key];
    // One word naming two of a filter's records (two requesters "jo…", two people "Lee"):
    // neither, and said, as for a word naming values of two filters.
    if (other && !Array.isArray(declared)) ambiguous.push(...sharedWordLines(key, hits));
    if (other) {
      if (
        Array.isArray(declared) &&
        !setApart(hits.flatMap((h) => h.words)) &&
        !excluded.some((e) => e.key === key)
      ) {
        const kept = hits.map((h) => h.choice.value);
        const values = declared.filter((v) => !kept.includes(v));
        if (values.length) excluded.push({ key, values, said: hits.map((h) => h.choice.label), kept });
      }
      continue;
    }
    const onward = reachedWhere(route, key, q, only);
    if (onward && Array.isArray(declared) && !excluded.some((e) => e.key === key)) {
      const values = declared.filter((v) => !onward.includes(v));
      excluded.push({ key, values, said: [only.choice.label], kept: onward, reached: only.choice.value });
      continue;
    }
    const param = `${key}=${encodeURIComponent(only.choice.value)}`;
    // A value named by people's words for it is said with them: "status = pending (on hold)".
    const { value, label } = only.choice;
    const spelt = Array.isArray(declared) && label !== value ? `${value} (${label})` : label;
    // Whose records they are comes first, however the address was named (a whole one is first).
    if (takesEmailAddress(declared)) {
      params.unshift(param);
      shown.unshift(`${filterName(key)} = ${value}`);
    } else {
      params.push(param);
      shown.push(`${filterName(key)} = ${spelt}`);
    }
  }
  const kept = textNegations(read, used, unexplained, negations);
  for (const t of kept.negations) used.delete(t);
  const deniedText = new Set(
    [...denied].filter((t) => unexplained.has(t) && !used.has(t) && !kept.words.has(t)),
  );
  // "the login one": "one" stands for the record the denied word describes, no word of its text.
  for (const [i, w] of read.entries())
    if (w.denied && tokens(w.raw).some((t) => deniedText.has(t)) && ONE.test(read[i + 1]?.raw ?? ""))
      used.add("one");
  for (const t of deniedText) used.add(t);
  return { params, shown, used, ambiguous, excluded, denied: deniedText };
}

/** A word standing for a record already described ("the login one", "the blue ones"). */
const ONE = /^ones?$/i;

/**
 * The negations that are a record's own words, not a filter: each right before the word it denies
 * and after another word of the text ("Code not applied", "parcel never arrived"), or "no" ("no
 * refund"), where that word names no filter, value or event here and is left for the text. Dropped,
 * the text filter searched `code applied` for a record titled "Code not applied", which no text
 * says (played: the listing of the one row holding the first word, and the model opened that row
 * next). A negation reaching past other words ("not about login") or denying a value ("not
 * resolved") stays read, never searched for. Returns those negations' words and the words they
 * keep.
 */
function textNegations(
  read: readonly ReadWord[],
  used: ReadonlySet<string>,
  unexplained: ReadonlySet<string>,
  negations: ReadonlySet<string>,
): { negations: string[]; words: Set<string> } {
  const words = new Set<string>();
  const kept = read.flatMap((w, i) => {
    const next = read[i + 1];
    if (!w.negation || !next?.denied) return [];
    const denied = tokens(next.raw);
    const text = denied.length > 0 && denied.every((t) => unexplained.has(t) && !used.has(t));
    // Inside the record's words (after one of them), or "no" naming what a record lacks; after the
    // listing's own word it sets the word apart ("<records> except login", "<records> without X").
    const before = tokens(read[i - 1]?.raw ?? "");
    const inside =
      before.length > 0 && before.every((t) => unexplained.has(t) && !used.has(t) && !CONNECTING.has(t));
    if (!text || !(inside || /^no$/i.test(w.raw))) return [];
    for (const t of denied) words.add(t);
    return tokens(w.raw).filter((t) => negations.has(t));
  });
  return { negations: kept, words };
}
