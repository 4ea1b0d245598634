/**
 * Words that take a described set whole ("every unassigned open ticket", "all my delivered
 * orders", "each of the open tickets"): each record that fits the whole description is one the
 * user's words name (engine/every-described.ts). Function words too: they say which, never what.
 */
export const EVERY_WORDS: readonly string[] = ["every", "each", "all"];

/**
 * English words that only put a request ("can I still …", "please show me which …", "is there
 * anything …") or fill it ("just", "really", "some"), never say what it is about. One list for
 * every reader of a request's words (capability search, the records a request describes, browse
 * search), each adding its own few: it was kept three times, and a ranking bug fixed in one copy
 * ("still", "something", issue 23) stood in the others.
 *
 * Written as said: each reader passes it through its own tokenizer, so a word it stems ("this",
 * "does") is compared the way that reader spells it.
 */
export const FUNCTION_WORDS: readonly string[] =
  // Who asks, and whom.
  (
    "i me my we us our you your it its this that these those they them their there here " +
    // Asking and wanting.
    "can could would should will shall may might must please want wanna need like " +
    "do does did be is am are was were been has have had " +
    "which whichever what whatever where who whom whose about from up " +
    // Filling.
    "some any something anything everything nothing someone somebody anyone anybody " +
    "just really also too ever still " +
    `${EVERY_WORDS.join(" ")} ` +
    // Asking how much is left ("how much store credit do I have left?"): round 26 read "much
    // left" as words to filter the profile by.
    "how much many left remaining " +
    // Asking how much up to now ("how much have I been refunded so far, altogether?"): set AS's
    // search found a sold-out product by "so" ("sold").
    "so far altogether overall"
  ).split(" ");

/**
 * Words that point back at the record a request already named ("… and give it to Sid", "… and
 * refund them"): a second ask holding one is about the same record as the first.
 */
export const POINTING_WORDS: readonly string[] = [
  "it",
  "its",
  "them",
  "this",
  "that",
  "these",
  "those",
  "它",
];

/**
 * The "'s" after a word (either apostrophe), dropped before text is cut into words: a
 * possessive's "s" is no word of its own, and taken as one it matched a query's one-letter word.
 */
export const POSSESSIVE = /(?<=[\p{L}\p{N}])['’]s\b/gu;

/**
 * A contraction's tail ("I've", "we're", "you'll", "I'd", "I'm"): no word of its own. Set AG:
 * "the most expensive thing I've ever ordered" searched records for `ve`.
 */
export const CONTRACTION = /(?<=\p{L})['’](?:ve|re|ll|d|m)\b/gu;
