/**
 * The words of a text as search compares them with a query's: each word as spelt (lower-case) →
 * its stem. Letters and digits runs (`_` splits too, so `owner_id` is "owner" and "id"), Chinese
 * runs as pairs of characters (as the route index reads them); a link's target is not text the
 * page says. One stem for both questions search asks of a page — does it say the query's words
 * (search.ts) and do its rows show them (words-rows-show.ts) — compared as strings, never as
 * patterns.
 *
 * `able` reads "returnable" as "return", for the words that name a column (set BK: "my delivered
 * orders returnable" named no `can_return`); never for a row's text, where "cancellable" found the
 * cancelled order (review 60b).
 *
 * `unnegated` drops a negating prefix ("unassigned" → "assign"): the column that says whether is
 * the same column. Off by default: a page that says "assigned" does not say "unassigned".
 */
export function stemmedWords(text: string, { unnegated = false, able = false } = {}): Map<string, string> {
  const lower = text.replace(/\]\([^)]*\)/g, "]").toLowerCase();
  const latin = lower.match(/[a-z0-9]+/g) ?? [];
  const cjk = [...lower.matchAll(/[\u4e00-\u9fff]+/g)].flatMap(({ 0: run }) =>
    run.length === 1 ? [run] : [...run].slice(1).map((c, i) => `${run[i]}${c}`),
  );
  return new Map([...latin, ...cjk].map((w) => [w, stem(able ? withoutAble(w) : w, unnegated)]));
}

/**
 * "assigned" and "assigner" (and the -ee form) → "assign"; "shipped" and "shipping" → "shipp"; a
 * plural of a short word loses its "s" ("mugs" → "mug"), as the route index has always read it.
 */
function stem(word: string, unnegated: boolean): string {
  const base = (unnegated && /^(?:un|non)(.{4,})$/.exec(word)?.[1]) || word;
  const cut = /^(.{4,}?)(?:ing|ed|ee|es|s|er)$/.exec(base)?.[1];
  return cut ?? (base.length > 3 && base.endsWith("s") ? base.slice(0, -1) : base);
}

/** "returnable" → "return", "refundable" → "refund": what can be done is the verb's column. */
function withoutAble(word: string): string {
  return /^(.{4,}?)(?:able|ible)$/.exec(word)?.[1] ?? word;
}
