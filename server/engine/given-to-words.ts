import { withoutDeniedCarried } from "../connectors/sdk/negated-words";
import { type ChoiceRow, namedAlike, wordTokens } from "./choice-words";

/** Words after which a name is the one given the value: "give it to X", "from Y to X", "onto X". */
const GIVEN_TO = new Set(["to", "onto"]);

/** Words after which a name is the one the value is taken from: "from Y", "off Y", "remove Y". */
const REPLACED_BEFORE = new Set(["from", "off", "remove", "removing", "replace", "replacing", "unassign"]);

/**
 * The one choice the node offers that the words give the value to ("… and give it to X", "from
 * Y to X"), where they name it as well as rows that are no choice of the field (the one holding
 * the value now, someone who cannot take it): those name what is replaced or left, and never
 * block the one offered choice named after "to". Set BR: "Take Y off the … ticket and give it to
 * X" tied X with Y, whom the node leaves out, and X was not taken.
 * Undefined unless the words tie exactly one offered row with the row the record holds now (`holding`), and give the
 * value to that row alone: "give it to Z" (no choice) beside X takes nobody here, and a name the
 * words deny or set apart ("to X, not W", "to W instead of X") names nothing (namedAlike's read).
 */
export function givenToInWords(
  rows: ChoiceRow[],
  offered: ReadonlySet<string>,
  words: string,
  holding: unknown,
): ChoiceRow | undefined {
  const tied = namedAlike(rows, words);
  const choices = tied.filter((r) => offered.has(r.value));
  const [choice] = choices;
  if (!choice || choices.length !== 1) return undefined;
  const holds = (raw: string) => wordTokens(raw).some((t) => rows.some((r) => r.tokens.has(t)));
  const said: string[] =
    withoutDeniedCarried(words, holds)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  // An alternative offered ("to X or leave it with Y") is the user's to decide (review 61c).
  if (said.includes("or")) return undefined;
  // Each row that is no choice must be named only where it is what is replaced ("from Y", "Y
  // off", "instead of Y", "remove Y"): as a speaker or a doer ("tell Y to give it to X", "have
  // Y take the other one") it names no value here, and the tie stands (review 61c).
  const others = tied.filter((r) => r !== choice);
  // And it must be the value the record holds now (review 61d: "Remove Bruno from tkt_2 and
  // assign it to Sara" reassigned Sid's ticket; Bruno, inactive, held nothing).
  if (others.some((r) => r.value !== holding)) return undefined;
  const replacedOnly = said.every(
    (word, i) =>
      !wordTokens(word).some((t) => others.some((r) => r.tokens.has(t) && !choice.tokens.has(t))) ||
      REPLACED_BEFORE.has(said[i - 1] ?? "") ||
      (said[i - 1] === "of" && said[i - 2] === "instead") ||
      (said[i - 1] === "than" && said[i - 2] === "rather") ||
      said[i + 1] === "off",
  );
  if (!replacedOnly) return undefined;
  const given = new Set<ChoiceRow>();
  said.forEach((word, i) => {
    if (!GIVEN_TO.has(said[i - 1] ?? "")) return;
    // The word after "to" tells one tied row from the others ("to shipping" may be a team's).
    const holding = wordTokens(word).flatMap((t) => tied.filter((r) => r.tokens.has(t)));
    if (holding.length === 1 && holding[0]) given.add(holding[0]);
  });
  return given.size === 1 && given.has(choice) ? choice : undefined;
}
