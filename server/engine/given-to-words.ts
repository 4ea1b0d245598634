import { withoutDeniedCarried } from "../connectors/sdk/negated-words";
import { type ChoiceRow, namedAlike, wordTokens } from "./choice-words";

/** Words after which a name is the one given the value: "give it to X", "from Y to X", "onto X". */
const GIVEN_TO = new Set(["to", "onto"]);

/**
 * The one choice the node offers that the words give the value to ("… and give it to X", "from
 * Y to X"), where they name it as well as rows that are no choice of the field (the one holding
 * the value now, someone who cannot take it): those name what is replaced or left, and never
 * block the one offered choice named after "to". Set BR: "Take Y off the … ticket and give it to
 * X" tied X with Y, whom the node leaves out, and X was not taken.
 * Undefined unless the words tie exactly one offered row with rows not offered, and give the
 * value to that row alone: "give it to Z" (no choice) beside X takes nobody here, and a name the
 * words deny or set apart ("to X, not W", "to W instead of X") names nothing (namedAlike's read).
 */
export function givenToInWords(
  rows: ChoiceRow[],
  offered: ReadonlySet<string>,
  words: string,
): ChoiceRow | undefined {
  const tied = namedAlike(rows, words);
  const choices = tied.filter((r) => offered.has(r.value));
  const [choice] = choices;
  if (!choice || choices.length !== 1) return undefined;
  const holds = (raw: string) => wordTokens(raw).some((t) => rows.some((r) => r.tokens.has(t)));
  const said =
    withoutDeniedCarried(words, holds)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const given = new Set<ChoiceRow>();
  said.forEach((word, i) => {
    if (!GIVEN_TO.has(said[i - 1] ?? "")) return;
    // The word after "to" tells one tied row from the others ("to shipping" may be a team's).
    const holding = wordTokens(word).flatMap((t) => tied.filter((r) => r.tokens.has(t)));
    if (holding.length === 1 && holding[0]) given.add(holding[0]);
  });
  return given.size === 1 && given.has(choice) ? choice : undefined;
}
