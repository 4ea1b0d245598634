import type { NextAction } from "../../connectors/sdk/outcome";
import type { OtherAsk } from "./other-asks";

/**
 * The words a call for an ask starts with. "give it to Y" alone names no record (the whole
 * request named it): its id is said beside the ask, before the text the ask carries, which stays
 * the words' end ("add an internal note (abc_9): '…'"; said after the quote, the id was posted in
 * the note's body).
 */
export function askIntent(ask: OtherAsk): string {
  if (!ask.pointed || !ask.entity_id) return ask.words;
  const at = /:\s|\s["'“‘«「『]|\s(?:saying|to say)\s/i.exec(ask.words)?.index ?? -1;
  if (at <= 0) return `${ask.words} (${ask.entity_id})`;
  return `${ask.words.slice(0, at)} (${ask.entity_id})${ask.words.slice(at)}`;
}

/** Said of an ask said again on a record its words do not pick: the agent asks, never guesses. */
const UNCLEAR = " (its words pick no record: ask the user which, then start it with that record's entity_id)";

/** The one call that does each other ask, for the answer's next steps, and one line for the rest. */
export function otherAskCalls(asks: readonly OtherAsk[], more = 0): NextAction[] {
  const rest: NextAction[] = more
    ? [{ tool: "start_action", description: `and ${more} more asks: start each by its words` }]
    : [];
  const calls = asks.flatMap((a): NextAction[] => {
    if (!a.capability || a.not_now) return [];
    const args = {
      capability: a.capability,
      ...(a.entity_id ? { entity_id: a.entity_id } : {}),
      intent: askIntent(a),
    };
    const needs = a.needs?.length
      ? `; its start needs ${a.needs.join(", ")}: send in patch, from the user's words, never a guess`
      : "";
    return [
      {
        tool: "start_action",
        args,
        description: `also asked: "${a.words}"${a.unclear ? UNCLEAR : ""}${needs}`,
      },
    ];
  });
  return [...calls, ...rest];
}
