import { capabilityRegistry } from "../../connectors/connector-registry";
import type { AnyCapability } from "../../connectors/sdk/define-capability";
import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { type CapabilityHit, capabilityHit } from "../../engine/capability-search";
import type { TrustedContext } from "../trusted-context";
import { visible } from "./caller-scope";

/** A value the words set that none of the matches takes, and the capabilities that take its field. */
export interface ValueNoneTakes {
  value: string;
  field: string;
  /** The caller's capabilities for the same kind of record that take the field. */
  takenBy: Array<{ capability: string; makesNew: boolean }>;
}

/**
 * A declared value of a field (an enum value of its schema) that the words set, where none of the
 * matches takes it under any field and only capabilities making a new record of that kind do. Set
 * CY (played, both hosts): asked to switch a placed order to a faster delivery, start_action
 * answered "several capabilities match about as well" with two changes that do not take that
 * field; the models read the record and searched to learn that nothing changes it there (3 calls,
 * the wrapper's model 0 from its tools' schemas). A value counts only where the words set it:
 * after "to", "into" or "by", or beside a word of its field's name.
 */
export function valueNoneTakes(
  ctx: TrustedContext,
  words: string,
  hits: readonly CapabilityHit[],
  setOnly = false,
): ValueNoneTakes | null {
  if (!hits.length) return null;
  const kinds = new Set(hits.map((h) => h.applies_to));
  const taken = new Set(hits.flatMap((h) => [...h.inputs, ...Object.keys(h.input_values ?? {})]));
  // A value any match takes, under any field, is taken (review 67b: "card" is a payment's and a
  // refund's value; a payment by card was refused as only the refund's).
  const takenValues = new Set(hits.flatMap((h) => Object.values(h.input_values ?? {}).flat()));
  const others = [...capabilityRegistry().values()]
    .filter(
      (c) => visible(ctx, c) && kinds.has(c.appliesTo.entity) && !hits.some((h) => h.capability === c.id),
    )
    .map((c) => ({ c, hit: entryOf(c) }));
  const lower = words.toLowerCase();
  for (const { hit } of others)
    for (const [field, values] of Object.entries(hit.input_values ?? {})) {
      if (taken.has(field)) continue;
      const value = values.find((v) => !takenValues.has(v) && setsValue(lower, v, field, setOnly));
      if (!value) continue;
      const takenBy = others
        .filter((o) => o.hit.input_values?.[field]?.includes(value))
        .map((o) => ({ capability: o.c.id, makesNew: !o.c.appliesTo.field }));
      // Only where what takes it makes a new record: the record there is cannot take it. A
      // capability changing such records would be a match the words missed, or the words only
      // describe the record by it ("the urgent priority ticket": review 67b).
      if (takenBy.every((t) => t.makesNew)) return { value, field, takenBy };
    }
  return null;
}

/** Verbs that open a change of a record's value ("switch … to", "upgrade … to"). */
const CHANGE_VERBS = "change|switch|swap|upgrade|downgrade|set|make|turn|move|convert|update";

/** Each capability's search entry, made once: search_capabilities reads them on every call. */
const entries = new WeakMap<AnyCapability, CapabilityHit>();
function entryOf(c: AnyCapability): CapabilityHit {
  let hit = entries.get(c);
  if (!hit) {
    hit = capabilityHit(c, 0);
    entries.set(c, hit);
  }
  return hit;
}

/**
 * Whether the words set `value` of `field`: after to/into/by, or beside a word of the field's
 * name. `setOnly` (beside a clear match): only after to/into in a clause a verb of changing opens
 * ("change my lamp order to express delivery"); review 68 found "not up to standard", "I want
 * to express my disappointment" and "it came by standard" refused the refund or cancel meant,
 * and review 68b "I paid to upgrade to express" (the verb inside the clause, not opening it);
 * an ask of its own after "and" is another ask, said as such, never refusing the first.
 */
function setsValue(lower: string, value: string, field: string, setOnly: boolean): boolean {
  const v = value.toLowerCase().replace(/[^a-z0-9]+/g, "[ _-]?");
  if (setOnly)
    return new RegExp(
      `(?:^|[,.;:!?—]\\s*)(?:please\\s+)?(?:${CHANGE_VERBS})\\b[^,.;:!?—]*?\\b(?:to|into)\\s+${v}\\b`,
    ).test(lower.trim());
  const names = field
    .toLowerCase()
    .split("_")
    .filter((w) => w.length > 2)
    .map((w) => w.replace(/[^a-z0-9]/g, ""));
  const beside = names.length
    ? `|\\b${v}\\s+(?:${names.join("|")})\\b|\\b(?:${names.join("|")})\\s+${v}\\b`
    : "";
  return new RegExp(`\\b(?:to|into|by)\\s+${v}\\b${beside}`).test(lower);
}

/**
 * start_action's refusal where the words set such a value: nothing is started (null: none is set).
 * With `chosen`, the one match the words clearly mean, only a value a change verb sets counts
 * (set DC: "Change my lamp order to express delivery" started an address change, 3 calls).
 */
export function valueNoneTakesRefusal(
  ctx: TrustedContext,
  words: string,
  rivals: readonly CapabilityHit[],
  hits: readonly CapabilityHit[],
  chosen?: CapabilityHit,
): (OutcomeBase & Record<string, unknown>) | null {
  if (chosen?.read) return null;
  const found = valueNoneTakes(ctx, words, chosen ? [chosen] : rivals, !!chosen);
  if (!found) return null;
  return {
    outcome: "rejected",
    reason: "no_capability_takes_value",
    message: `${valueNoneTakesMessage(found, rivals[0]?.applies_to ?? "record")}. Nothing was started: tell the user it cannot be changed here`,
    retryable: false,
    results: [...hits],
    next_actions: [],
  };
}

/** The refusal's sentence: no match takes the field; who does, and for what. */
export function valueNoneTakesMessage(found: ValueNoneTakes, kind: string): string {
  const by = found.takenBy
    .map((t) => `\`${t.capability}\`${t.makesNew ? ` (when it makes a new ${kind.toLowerCase()})` : ""}`)
    .join(", ");
  return `None of the matching capabilities changes \`${found.field}\` (\`${found.value}\` is one of its values): only ${by} takes it`;
}
