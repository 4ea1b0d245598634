import type { OutcomeBase } from "../../connectors/sdk/outcome";
import { REQUEST_NOTE } from "../../connectors/sdk/request-note";
import type { CapabilityHit } from "../../engine/capability-search";
import { queryClauses } from "../../engine/query-clauses";
import { otherAsks } from "./other-asks";

/** Said after the message of a change held for its text to be checked. */
export const HELD_TEXT =
  " — not sent yet: the words ask more than this, so check the text taken from them (fix it with advance_action), then confirm_action";

/**
 * Whether a change that would run at once waits for the agent's confirm instead: text the user's
 * words gave (a comment's body, shown quoted in from_words) where those words ask more than one
 * thing. Where one ask ends and the text begins is read from the words, and a misreading would
 * post an instruction to the agent where a customer reads it (a review: "tell the customer we've
 * sent an L and mark as pending" posted "We've sent an L and mark as pending" at once) or drop a
 * part of the message. One ask with its text runs at once as before. This is the cheap first
 * reading; the gateway confirms it with the other-asks reading before holding.
 */
export function textHeldForCheck(
  intent: string | undefined,
  out: OutcomeBase & Record<string, unknown>,
): boolean {
  if (!intent) return false;
  const words = out.from_words;
  const quoted =
    !!words &&
    typeof words === "object" &&
    Object.values(words as Record<string, unknown>).some(
      // The request whole, as a reason it only keeps (request-as-reason.ts), or text the user put
      // in quotes themselves (set Y: "… and add an internal note: 'Carrier escalation opened.'"):
      // no reading of where an ask ends made it, so there is nothing to check.
      (v) =>
        typeof v === "string" &&
        v.startsWith('"') &&
        !v.endsWith(`(${REQUEST_NOTE})`) &&
        !quotedByUser(intent, v.slice(1, v.lastIndexOf('"'))),
    );
  if (!quoted) return false;
  return queryClauses(intent.toLowerCase()).filter((c) => c.role === "request").length > 1;
}

/** Whether the request holds this text whole between quote marks of the user's own. */
function quotedByUser(intent: string, text: string): boolean {
  if (!text.trim()) return false;
  const opens = ['"', "'", "\u201c", "\u2018"];
  const closes = ['"', "'", "\u201d", "\u2019"];
  return opens.some((o) => closes.some((c) => intent.includes(`${o}${text}${c}`)));
}

/**
 * Whether a start that read text from words asking several things is held for that text to be
 * checked: the cheap first reading (textHeldForCheck), confirmed by the other-asks reading.
 */
export async function heldForText(
  intent: string,
  out: OutcomeBase & Record<string, unknown>,
  { askedAs, ownAsk }: { askedAs?: string; ownAsk?: number },
  search: (query: string) => Promise<CapabilityHit[]>,
): Promise<boolean> {
  if (!textHeldForCheck(intent, out) || typeof out.capability !== "string") return false;
  const entity = out.entity as { type: string; id: string } | undefined;
  const setWords = Array.isArray(out.field_words) ? (out.field_words as string[]) : [];
  const started = { capability: out.capability, entity, askedAs, ownAsk };
  const read = await otherAsks(intent, started, search, setWords);
  return read.asks.length > 0 || read.more > 0;
}
