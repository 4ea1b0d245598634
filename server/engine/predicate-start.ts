/**
 * Whether a word after a record's name opens what the clause says happened to it (its predicate:
 * "… order | stopped working", "… order | never came", "… order | is late", "… that | hasn't
 * shipped"), by English verb forms alone: an auxiliary or copula, a past form (regular "-ed" or a
 * common irregular one). Such a word and those after it in its clause are no name of the record:
 * set P, "the … from my delivered … order stopped working" asked which order for
 * "stopped", a word no order says. Pure grammar, no business words.
 */

/** Auxiliaries, copulas and linking verbs, as written and without the contraction's apostrophe. */
const AUXILIARIES = new Set(
  (
    "is are was were am be been being has have had do does did will would shall should can could may might must " +
    "isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt wont wouldnt cant cannot couldnt shouldnt " +
    "never keeps kept seems seemed looks looked became becomes gets got"
  ).split(" "),
);

/** Past forms no "-ed" rule reaches (the common ones a thing does or has done to it). */
const IRREGULAR_PAST = new Set(
  (
    "came went broke broken fell fallen gave given took taken tore torn wore worn froze frozen shrank shrunk " +
    "sank sunk split stuck burst bent lost stood stole stolen began begun ran made left shown sent"
  ).split(" "),
);

/** Whether this word (as written: "stopped", "hasn't", "never") opens a clause's predicate. */
export function opensPredicate(raw: string): boolean {
  const w = raw.toLowerCase().replace(/['’]/g, "");
  return AUXILIARIES.has(w) || IRREGULAR_PAST.has(w) || /^[a-z]{3,}ed$/.test(w);
}

/** Whether this word (as written) is a past form: "delivered", "sent", "moved". */
export function isPastForm(raw: string): boolean {
  const w = raw.toLowerCase();
  return IRREGULAR_PAST.has(w) || /^[a-z]{3,}ed$/.test(w);
}
