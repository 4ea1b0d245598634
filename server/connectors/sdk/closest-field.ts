/** A field a form or a capability accepts, as an agent's misnamed field is compared with it. */
export interface FieldCandidate {
  name: string;
  /** What the field is, in its declaration's words (a zod `.describe()`, a document's description or title). */
  description?: string;
  /** Whether the field takes the value sent under the other name (absent: not checked). */
  takes?: (value: unknown) => boolean;
  /** The field takes a list (absent: one value), to send a list under another name to a list. */
  list?: boolean;
}

/** The field a misnamed one most likely meant, and why, in words for the answer. */
export interface ClosestField {
  field: string;
  /** Why, where the name alone does not say it: the description's opening words, quoted. */
  because?: string;
}

const ARTICLES = new Set(["the", "a", "an", "one", "its", "their"]);

/** A name's words: `shipping_method_id` → shipping, method, id; `itemIds` → item, ids → item. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));
}

/** A description's opening words, for the answer: "The comment, exactly as the user worded it". */
export function firstClause(description: string): string {
  return (description.split(/[(;:]/)[0] ?? "").trim().slice(0, 60);
}

/** What a description says the field is: its first word after an article ("The comment, …" → comment). */
function headWord(description: string): string | undefined {
  return nameWords(description.split(/[,;:(.]/)[0] ?? "").find((w) => !ARTICLES.has(w));
}

/**
 * Edits between two words, a swap of neighbours counting as one (optimal string alignment):
 * `adress`/`address` and `paymnet`/`payment` are one slip each. Plain Levenshtein (what the
 * common packages compute) counts a swap as two, which would put it past the bound below.
 */
function slips(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  return (d[a.length] as number[])[b.length] as number;
}

/** A slip of the keyboard, not another word: one edit from four letters, two from eight. */
function misspelt(sent: string, word: string): boolean {
  const bound = Math.min(sent.length, word.length) >= 8 ? 2 : Math.min(sent.length, word.length) >= 4 ? 1 : 0;
  return bound > 0 && slips(sent, word) <= bound;
}

/**
 * The one field a name the form or capability lacks most likely meant: closeFields' answer when
 * it is one field; none when it is none or several (the agent is told, nothing is guessed).
 */
export function closestField(
  sent: string,
  value: unknown,
  candidates: readonly FieldCandidate[],
): ClosestField | undefined {
  const found = closeFields(sent, value, candidates);
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The fields a name the form or capability lacks most likely meant, by what the fields declare
 * (a rule for every connector, imported ones too, not a table of synonyms), in this order, each
 * counting only when exactly one field fits it:
 *
 * 1. the names share a word (`team` → team_id; `ticket` → ticket_id);
 * 2. each word sent is a slip of a word of the field's name (`adress_id` → address_id,
 *    `priorty` → priority);
 * 3. the field's description says it *is* what was sent ("body: The comment, exactly as …" for
 *    `comment`), or a slip of it.
 *
 * Only a field that takes the value counts (where `takes` is given). Then, when no field takes
 * it, the names alone: a shared word still says which field it is (`items: [{item_id, quantity}]`
 * is item_ids, the list field, whatever shape its lines have: issue 23 played, where dropping it
 * lost which item to return). Two or more equally close fields are all returned, none chosen.
 */
export function closeFields(
  sent: string,
  value: unknown,
  candidates: readonly FieldCandidate[],
): ClosestField[] {
  const others = candidates.filter((c) => c.name !== sent);
  const fits = others.filter((c) => !c.takes || c.takes(value));
  const said = nameWords(sent).filter((w) => w !== "id");
  if (!said.length) return [];
  const only = (list: FieldCandidate[]) => (list.length === 1 ? list[0] : undefined);
  const own = (c: FieldCandidate) => nameWords(c.name).filter((w) => w !== "id");
  const named = (c: FieldCandidate) => own(c).some((w) => said.includes(w));
  const byName = only(fits.filter(named));
  if (byName) return [{ field: byName.name }];
  const bySpelling = only(fits.filter((c) => said.every((s) => own(c).some((w) => misspelt(s, w)))));
  if (bySpelling) return [{ field: bySpelling.name }];
  const byDescription = only(
    fits.filter((c) => {
      const head = c.description ? headWord(c.description) : undefined;
      return !!head && said.some((s) => s === head || misspelt(s, head));
    }),
  );
  if (byDescription?.description)
    return [{ field: byDescription.name, because: `"${firstClause(byDescription.description)}"` }];
  // The names alone, narrowed to the fields that take the value, else to those of its shape.
  const all = others.filter(named);
  const taking = all.filter((c) => c.takes?.(value));
  // An object has no shape to tell a list field from a single one: it narrows nothing.
  const shapeless = typeof value === "object" && value !== null && !Array.isArray(value);
  const shaped = shapeless ? [] : all.filter((c) => !!c.list === Array.isArray(value));
  const close = taking.length ? taking : shaped.length ? shaped : all;
  return close.map((c) => ({ field: c.name }));
}
