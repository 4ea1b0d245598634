import type { AnyCapability } from "../connectors/sdk/define-capability";
import { EVERY_WORDS, FUNCTION_WORDS } from "../function-words";
import { type ChoiceRow, wordTokens } from "./choice-words";
import { MADE_WORDS } from "./day-words";
import { askPart, type Described, describedRecords, says } from "./described-records";
import { whatToDoWords } from "./what-to-do-words";

const EVERY = new Set(EVERY_WORDS);
/** Words that end a description before the record's name: what comes next is another thing's. */
const BEFORE_NAME_ENDS = new Set(
  "from in on of to for with into onto at by and or but then than as because since so instead until unless not".split(
    " ",
  ),
);
/** After the record's name, these start what to do with it ("… to someone on its own team"). */
const AFTER_NAME_ENDS = new Set(
  "to for into onto as because since so but instead than then until unless and".split(" "),
);
/** Words beside a description that describe nothing ("all my orders that are delivered"). */
const FILLER = new Set(wordTokens(`${FUNCTION_WORDS.join(" ")} ${MADE_WORDS.join(" ")} one`));

/** A description the words take whole: its words (tokens, as rows are read) and the phrase said. */
export interface EveryDescription {
  words: string[];
  said: string;
}

/**
 * "Every unassigned open ticket", "all my delivered orders", "each of the open tickets": one of
 * EVERY_WORDS taking the record's name (`noun`), with only describing words between (a preposition
 * or a comma between them makes it another thing's: "all the mugs from my order" is about mugs,
 * not orders), and after the name those up to what to do: a word of AFTER_NAME_ENDS or one of
 * `whatToDo` (the capability's words: "… high priority"). Undefined when no such phrase.
 */
export function everyDescription(
  text: string,
  noun: string,
  whatToDo: ReadonlySet<string> = new Set(),
): EveryDescription | undefined {
  const raw = text.toLowerCase().match(/[\p{L}\p{N}'’_-]+|[.,;:!?—–()]/gu) ?? [];
  for (let i = 0; i < raw.length; i++) {
    if (!EVERY.has(raw[i] ?? "") || raw[i - 1] === "not") continue;
    let j = raw[i + 1] === "of" ? i + 2 : i + 1;
    const words: string[] = [];
    for (; j < raw.length && j <= i + 8; j++) {
      const w = raw[j] ?? "";
      const [token] = wordTokens(w);
      if (token === noun) {
        const said = raw.slice(i, j + 1).join(" ");
        for (
          let k = j + 1;
          k < raw.length &&
          !AFTER_NAME_ENDS.has(raw[k] ?? "") &&
          !(raw[k] === "back" && raw[k + 1] === "to") &&
          /[\p{L}\p{N}]/u.test(raw[k] ?? "");
          k++
        ) {
          const tokens = wordTokens(raw[k] ?? "");
          // "Make every urgent ticket high priority": the new value is what to do, not which.
          if (tokens.some((t) => whatToDo.has(t))) break;
          words.push(...tokens);
        }
        return { words: words.filter((t) => !FILLER.has(t)), said };
      }
      if (BEFORE_NAME_ENDS.has(w) || !/[\p{L}\p{N}]/u.test(w)) break;
      if (token) words.push(token);
    }
  }
  return undefined;
}

/**
 * The records the user's words name by taking a description whole ("give every unassigned open
 * ticket to someone on its own team"): each record that can take the change and fits every
 * describing word, the ones the capability reads as what to do included. Played (issue 23): the
 * model started assign_ticket for each of the two, and each time was told the user's words did not
 * name it, so it asked the user twice. Strict: a word no record says, a description only by what
 * the records are not, or a record missing one word, and nothing is covered (undefined): the
 * user is asked, as before. `found` is describedRecords' answer when the caller has it.
 */
export function everyCovered(
  capability: AnyCapability,
  rows: ChoiceRow[],
  request: string,
  found?: Described,
): ChoiceRow[] | undefined {
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  const asked = askPart(request, rows);
  const every = everyDescription(
    asked,
    noun,
    whatToDoWords(capability, asked, (w) => rows.some((r) => says(r, w))),
  );
  if (!every?.words.length) return undefined;
  const described = found ?? describedRecords(capability, rows, request);
  if (!described || described.kind === "closed") return undefined;
  if (
    described.kind === "several" &&
    (described.unsaid.length || described.words.some((w) => w.startsWith("not ")))
  )
    return undefined;
  const covered = described.kind === "one" ? [described.choice] : described.choices;
  return covered.every((r) => every.words.every((w) => says(r, w))) ? covered : undefined;
}

/**
 * Why the first of the covered records is this action's, and what to do for the others: one
 * action per record, each started with the same words (they name it too), no listing call.
 */
export function everyWhy(capability: AnyCapability, covered: ChoiceRow[], request: string): string {
  const noun = wordTokens(capability.appliesTo.entity)[0] ?? "";
  const said = everyDescription(askPart(request, covered), noun)?.said ?? "the user's words";
  const [first, ...rest] = covered.map((r) => r.value);
  const others = rest.length
    ? `, ${rest.join(", ")}; start each other one: start_action {capability: "${capability.id}", entity_id, intent: the same words}`
    : "";
  return `"${said}" covers ${covered.length}: ${first} (this action)${others}`;
}
