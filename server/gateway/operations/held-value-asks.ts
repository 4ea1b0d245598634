import { requestWords } from "../../engine/request-words";
import type { TrustedContext } from "../trusted-context";
import type { HeldValuesNamed } from "./held-values-named";
import type { OtherAsk } from "./other-asks";
import { namesRecordIn } from "./own-ask-words";

/** The started action as its other asks are read against it: its record, and what its words set. */
export interface StartedValues {
  capability?: string;
  entity?: { id: string };
  /** The kind of record it applies to (its capability's entity). */
  kind?: string;
  /** Field → the value the start took from the words (its from_words). */
  from_words?: unknown;
  /** Field → the value the record held before the start's words replaced it (its `replaced`). */
  replaced?: Record<string, string>;
}

/**
 * The other asks read against what their words name on the record (held-values-named.ts):
 * - an ask whose words take, on the started record, the very value the started change replaced
 *   for a field it set from the words is part of that change, not another ask: left out, never
 *   offered nor run. Set BR: "Take Y off the … ticket and give it to X" offered "Take Y off …" as
 *   a status change (its description says "off hold"); giving the ticket to X takes Y off it.
 * - otherwise, an ask whose matches tie where only one of them takes a field whose value there
 *   now its words name is that one's (as a start of those words alone: pick-by-held-value.ts),
 *   offered, never run in this call: the record settled it, not the words.
 * - an ask that its held value picks as the started capability on the started record, which its
 *   id or its own words name, is the started change said again: left out.
 * One evaluation per match read; none where the start replaced nothing and the ask ties nothing.
 */
export async function heldValueAsks(
  heldNamed: HeldValuesNamed | undefined,
  ctx: TrustedContext,
  started: StartedValues,
  asks: readonly OtherAsk[],
): Promise<OtherAsk[]> {
  const set = stringValues(started.from_words);
  const replaced = started.replaced ?? {};
  const replacing = Object.keys(replaced).some((f) => set[f] !== undefined);
  const read = await Promise.all(
    asks.map(async ({ near = [], ...a }): Promise<OtherAsk | null> => {
      // An ask no capability's words fit may still be the started change's ("take the ticket away
      // from Y" beside "give it to X": set DD said it "not done"): read as that one's.
      const asked = a.capability ?? (replacing ? started.capability : undefined);
      if (!heldNamed || !asked || (!near.length && !replacing)) return a;
      const named = await heldNamed(ctx, {
        words: a.words,
        ...(a.entity_id ? { entityId: a.entity_id } : {}),
        only: [asked, ...near],
      });
      const partOfStarted = named.some(
        (n) =>
          n.record === started.entity?.id &&
          Object.entries(n.taken).some(([f, v]) => replaced[f] === v && set[f] !== undefined && set[f] !== v),
      );
      if (partOfStarted) return null;
      const holding = named.filter((n) => Object.keys(n.held).length);
      const [one] = holding;
      if (!near.length || !one || holding.length !== 1) return a;
      // The value it holds picks the started change itself, on its record, which the ask's own
      // words name: the same ask said twice (set CX: "Take Bella off the kettle refund ticket;
      // leave it unassigned" offered the unassignment it had started). Not an "it" after another
      // record's name (review 67: "…; and for the parcel damaged ticket, take Sid off it").
      if (
        one.capability === started.capability &&
        one.record === started.entity?.id &&
        (a.entity_id === started.entity?.id ||
          (started.kind !== undefined && namesRecordIn(requestWords(a.words), started.kind)))
      )
        return null;
      if (one.capability === a.capability) return a;
      const { unapproved: _, ...offered } = a;
      return { ...offered, capability: one.capability };
    }),
  );
  return read.filter((a) => a !== null);
}

/** The string values of an object (a start's from_words), by key. */
function stringValues(values: unknown): Record<string, string> {
  if (!values || typeof values !== "object") return {};
  return Object.fromEntries(
    Object.entries(values as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === "string",
    ),
  );
}
