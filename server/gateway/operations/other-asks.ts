import type { NextAction } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import { queryClauses } from "../../engine/query-clauses";
import { asksOnlyToRead } from "../../engine/top-match";
import { POINTING_WORDS } from "../../function-words";

/**
 * An ask of the user's words that the started action does not do: the capability its own words
 * fit best and the record they name, or none when no capability does it.
 */
export interface OtherAsk {
  words: string;
  capability?: string;
  entity_id?: string;
  /** The record came from a pointing word ("it"): the call's words name it, as the user's did. */
  pointed?: true;
}

/** Searches capabilities for words, as the caller may see them (the search operation, audited). */
type Search = (query: string) => Promise<CapabilityHit[]>;

/** A record id as written: a prefix, an underscore and the rest ("abc_2", "xyz_late"). */
const ID_SHAPE = /\b[a-z][a-z0-9]*_[a-z0-9]+\b/i;
const POINTING = new Set(POINTING_WORDS);

/**
 * The asks of `intent` besides the one the started capability does. Issue 23: "make X high
 * priority and give it to Y" changed the priority and answered "flow finished", the assignment
 * silently dropped. Each clause that asks (clause splitter) is scored alone (the capability
 * search); one the started capability matches on a word it asks with (no mere topic match) is
 * what the action does. Only words with an ask the action does are read so: where no
 * single ask is the started capability's, it answered the words as a whole (several clauses
 * filling one purchase), and nothing is said to be left. A clause that only reads ("find …") sets
 * the scene for the change, no ask of its own.
 */
export async function otherAsks(
  intent: string,
  started: { capability: string; entity?: { type: string; id: string } },
  search: Search,
): Promise<OtherAsk[]> {
  const lower = intent.toLowerCase();
  const asks = queryClauses(lower).filter((c) => c.role === "request" && !asksOnlyToRead(c.text));
  if (asks.length < 2) return [];
  const read = await Promise.all(
    asks.map(async (clause) => {
      // The words as the user wrote them (the splitter reads them lower-cased).
      const at = lower.indexOf(clause.text);
      const words = at >= 0 ? intent.slice(at, at + clause.text.length) : clause.text;
      const named = words.match(ID_SHAPE)?.[0];
      const points = (clause.text.match(/\p{L}+/gu) ?? []).some((w) => POINTING.has(w));
      const record = named ?? (points ? started.entity?.id : undefined);
      // The record's id beside the words names its kind, as start_action by words reads it.
      const hits = (await search(record && !named ? `${words} ${record}` : words)).filter(
        (h) => !h.not_for?.length && !h.topic_only && !h.off_topic,
      );
      const best = hits[0];
      // The started capability does some of what these words ask (not only their topic): "ship
      // it to my office" beside "buy everything in my cart" is the purchase's own address.
      const done = hits.some((h) => h.capability === started.capability);
      return { words, best, done, record, named };
    }),
  );
  if (!read.some((r) => r.done)) return [];
  return read
    .filter((r) => !r.done)
    .map(({ words, best, record, named }) => {
      if (!best) return { words };
      // A pointing word means the started record only where the capability is for its kind.
      const sameKind = !record || record !== started.entity?.id || best.applies_to === started.entity.type;
      if (!record || !sameKind) return { words, capability: best.capability };
      return {
        words,
        capability: best.capability,
        entity_id: record,
        ...(record !== named ? { pointed: true as const } : {}),
      };
    });
}

/** The one call that does each other ask, for the answer's next steps. */
export function otherAskCalls(asks: readonly OtherAsk[]): NextAction[] {
  return asks.flatMap((a) =>
    a.capability
      ? [
          {
            tool: "start_action" as const,
            args: {
              capability: a.capability,
              ...(a.entity_id ? { entity_id: a.entity_id } : {}),
              // "give it to Y" alone names no record; the whole request named it.
              intent: a.pointed ? `${a.words} (${a.entity_id})` : a.words,
            },
            description: `also asked: "${a.words}"`,
          },
        ]
      : [],
  );
}
