import { EVERY_WORDS, FUNCTION_WORDS } from "../function-words";
import { wordTokens } from "./choice-words";

/** Words that open a name phrase ("the", "every", "my"): they say which, never what the record is. */
const OPENERS = new Set(wordTokens(`${FUNCTION_WORDS.join(" ")} ${EVERY_WORDS.join(" ")}`));

/** A request's name phrase: the words in it (tokens) and the request without them. */
export interface NamePhrase {
  tokens: Set<string>;
  rest: string;
}

/**
 * The record's name phrase in a request: the words right before each of its noun's occurrences
 * that the records say ("every urgent ticket", "the open billing ticket"). They describe which
 * record, whatever other field's value they also are: issue 23, "Make every urgent ticket high
 * priority" read "urgent" as the new priority (a value of the field being changed), and the
 * ticket it described as named by nothing. The phrase ends at a word no record says or one that
 * only says which ("the", "my", "every"): "exchange my kettle order" keeps "exchange" what to do.
 */
export function namePhrase(request: string, noun: string, says: (token: string) => boolean): NamePhrase {
  const raw = request.split(/\s+/).filter(Boolean);
  const first = raw.map((w) => wordTokens(w)[0]);
  const inPhrase = new Set<number>();
  for (const [at, token] of first.entries()) {
    if (token !== noun) continue;
    for (let i = at - 1; i >= 0; i--) {
      const w = first[i];
      // A word with a mark after it ends a clause: "urgent, ticket" is no phrase.
      if (!w || w === noun || OPENERS.has(w) || /[^\p{L}\p{N}'’-]$/u.test(raw[i] ?? "") || !says(w)) break;
      inPhrase.add(i);
    }
  }
  return {
    tokens: new Set([...inPhrase].flatMap((i) => wordTokens(raw[i] ?? ""))),
    rest: inPhrase.size ? raw.filter((_, i) => !inPhrase.has(i)).join(" ") : request,
  };
}
