import type { AnyCapability } from "../connectors/sdk/define-capability";
import { isFreeText } from "./choice-words";

/** The field a patch most likely meant, and why, in words for the answer. */
export interface FieldMeant {
  field: string;
  /** "its description: The comment, exactly as the user worded it" */
  because: string;
}

const ARTICLES = new Set(["the", "a", "an", "one", "its", "their"]);

/** A name's words: `shipping_method_id` → shipping, method, id; `itemIds` → item, ids. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));
}

/** A description's opening words, for the answer: "The comment, exactly as the user worded it". */
function firstClause(description: string): string {
  return (description.split(/[(;:]/)[0] ?? "").trim().slice(0, 60);
}

/** What a description says the field is: its first word after an article ("The comment, …" → comment). */
function headWord(description: string): string | undefined {
  const words = nameWords(description.split(/[,;:(.]/)[0] ?? "");
  return words.find((w) => !ARTICLES.has(w));
}

/**
 * The capability's field a patch field it does not have most likely meant, by what the
 * capability itself declares (a general rule for every connector, imported ones too): a field
 * whose name shares a word with the one sent (`team` → team_id), else the one whose
 * description says it *is* that thing ("body: The comment, exactly as …" for `comment`), else,
 * for a value of a person's own words, the one free-text field. Only a value the field's schema
 * takes counts, and only one clear candidate: two equally likely are no answer. Round 7's model
 * sent `comment` to comment_ticket and was told only that the field does not exist.
 */
export function fieldMeant(
  capability: AnyCapability,
  sent: string,
  value: unknown,
  allowed: string[],
): FieldMeant | undefined {
  const fields = capability.nodes.flatMap((n) => Object.entries(n.fields ?? {}));
  const fits = fields.filter(([f, schema]) => allowed.includes(f) && schema.safeParse(value).success);
  const said = nameWords(sent).filter((w) => w !== "id");
  const describe = (f: string, description: string | undefined): FieldMeant => ({
    field: f,
    because: description ? `"${firstClause(description)}"` : "by its name",
  });
  const only = <T>(list: T[]) => (list.length === 1 ? list[0] : undefined);
  const byName = only(fits.filter(([f]) => nameWords(f).some((w) => w !== "id" && said.includes(w))));
  if (byName) return describe(byName[0], byName[1].description);
  const byHead = only(
    fits.filter(([, s]) => {
      const head = s.description ? headWord(s.description) : undefined;
      return !!head && said.includes(head);
    }),
  );
  if (byHead) return describe(byHead[0], byHead[1].description);
  // A person's own sentence: it can only go where free text goes, when one field takes it.
  if (typeof value === "string" && /\s/.test(value.trim())) {
    const free = only(fits.filter(([f, s]) => isFreeText(f, s, {})));
    if (free)
      return {
        field: free[0],
        because: `the only free-text field${free[1].description ? `: "${firstClause(free[1].description)}"` : ""}`,
      };
  }
  return undefined;
}
