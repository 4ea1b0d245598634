import type { Actor, AnyCapability, Values } from "../connectors/sdk/define-capability";
import { whenText } from "../connectors/sdk/when-text";
import { catchSystemUnavailable } from "./catch-system-unavailable";
import {
  type ChoiceRow,
  candidateText,
  choicesFor,
  namedInWords,
  withLifecycle,
  wordTokens,
} from "./choice-words";
import { everyCovered, everyDescription } from "./every-described";

/** What the answer says when the record of a change is the agent's pick among several. */
export interface AskUser {
  field: string;
  /** The record that was sent (the agent's pick): a page offering the user's words names it. */
  record: string;
  message: string;
  candidates: string[];
}

/**
 * A change nobody approves runs at once (under the agent's key or the server's) only on a record
 * the user meant: the only one it can be done for, or the one their words named. Otherwise the
 * action waits, and the answer says what runs it: confirm_action, once the user said which. When
 * the record was picked by the agent among several that fit (another of the user's orders would
 * take the same change), this names them so the agent asks the user first; null when the record
 * is unambiguous. Reads the first node's own offer (its choices when no record is named): the
 * same rows the agent was shown.
 */
export async function unnamedRecord(
  capability: AnyCapability,
  adapter: unknown,
  actor: Actor,
  values: Values,
  words: { request?: string; fromWords: Record<string, string> },
): Promise<AskUser | null> {
  const field = capability.appliesTo.field;
  const first = capability.nodes[0];
  if (!field || !first?.resolve || !first.fields?.[field]) return null;
  const chosen = values[field];
  if (typeof chosen !== "string" || words.fromWords[field] === chosen) return null;
  const { [field]: _, ...without } = values;
  const offer = await first.resolve({ adapter, actor, values: without, derived: {} });
  const eligible = choicesFor(field, offer.options ?? {}).filter((r) => possible(r));
  if (eligible.length < 2 || !eligible.some((r) => r.value === chosen)) return null;
  if (words.request && namedInWords(eligible, words.request)?.value === chosen) return null;
  // "Every unassigned open ticket" names each ticket the whole description fits (every-described.ts),
  // read from the same rows a start's words are (the node's offer and its lookup).
  if (words.request && everyDescription(words.request, wordTokens(capability.appliesTo.entity)[0] ?? "")) {
    const looked = (await first.lookup?.({ adapter, actor, values: without, derived: {} })) ?? {};
    const rows = withLifecycle(choicesFor(field, { ...offer.options, ...looked }), first.lifecycle);
    if (everyCovered(capability, rows, words.request)?.some((r) => r.value === chosen)) return null;
  }
  const shown = eligible.slice(0, 10);
  const telling = tellingKeys(shown);
  return {
    field,
    record: chosen,
    // Said as what happened: round 10's model sent the record itself and read "(… was picked)"
    // as the server's guess.
    message: `${chosen} was sent, but the user's words do not name it and ${eligible.length - 1} other records would take this change too: ask the user whether they mean ${chosen}; on their word, confirm_action runs it${telling.length ? `; they differ in ${telling.join(", ")}` : ""}`,
    candidates: shown.map((r) =>
      [candidateText(r), ...telling.map((k) => `${k}: ${fact(r.row[k])}`)].join(" · "),
    ),
  };
}

/** Keys never worth a candidate's line: its id and name (already shown) and the verdict (all "yes"). */
const SHOWN_KEYS = new Set([
  "id",
  "value",
  "possible",
  "name",
  "label",
  "title",
  "subject",
  "items",
  "description",
]);

/**
 * The row keys whose short values differ among the candidates (at most four, in the row's order):
 * what tells them apart, so the user can be asked by status, date or address, not by id alone.
 * Round 3's model, given "5 of the user's records…" and five ids with subjects, re-read each.
 */
function tellingKeys(rows: ChoiceRow[]): string[] {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.row)))].filter((k) => !SHOWN_KEYS.has(k));
  return keys
    .filter((k) => {
      const values = rows.map((r) => fact(r.row[k]));
      return values.every((v) => v.length <= 40) && new Set(values).size > 1;
    })
    .slice(0, 4);
}

/** A row value as one short fact: scalars as they are, an object by its label or name, else "—". */
function fact(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "string") return whenText(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && !Array.isArray(value)) {
    const named = (value as Record<string, unknown>).label ?? (value as Record<string, unknown>).name;
    if (typeof named === "string") return named;
  }
  return "…";
}

/** A row the node offers as possible ("yes", or no verdict given). */
function possible(row: ChoiceRow): boolean {
  const verdict = row.row.possible;
  return verdict === undefined || verdict === "yes";
}

/**
 * unnamedRecord, where the system could not be asked: the agent asks the user rather than a
 * change running at once on a record nobody checked was the only one.
 */
export async function recordToAsk(
  capability: AnyCapability,
  adapter: unknown,
  actor: Actor,
  values: Values,
  words: { request?: string; fromWords: Record<string, string> },
): Promise<AskUser | null> {
  const found = await catchSystemUnavailable(async () => ({
    ask: await unnamedRecord(capability, adapter, actor, values, words),
  }));
  if ("unavailable" in found)
    return {
      field: capability.appliesTo.field ?? "",
      record: String(values[capability.appliesTo.field ?? ""] ?? ""),
      message:
        "Could not check whether other records fit this change: ask the user; on their word, confirm_action runs it",
      candidates: [],
    };
  return found.ask;
}
