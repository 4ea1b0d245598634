import { takenElsewhere } from "../../connectors/sdk/other-asks-lines";
import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { TrustedContext } from "../trusted-context";
import type { FieldElsewhere } from "./fields-elsewhere";
import { otherAskCalls } from "./other-ask-calls";
import type { OtherAsk } from "./other-asks";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;

/**
 * A change a person must approve is never sent for approval short of what the user's words asked
 * of it: their screen would show a change they did not ask for. Set CK (both hosts): a payment
 * asked with an offer's code opened its approval without it (a payment takes no such code; only
 * a new order does), with one "not done" line the model on a plain host read after the fact, and
 * the model on a host that shows an approval at once never read; the person declined on her
 * screen, and the agent learned why in two more calls. The action is cancelled before anyone saw
 * it (nothing ran) and the answer says why, with the start that does the rest once the user says
 * to go on without it. Undefined when it was not cancelled. A start that still needs fields says
 * it as not done, and the agent reads it before any approval opens.
 */
export async function shortOfWords(
  cancelAction: Operation,
  ctx: TrustedContext,
  intent: string,
  out: Outcome,
  elsewhere: readonly FieldElsewhere[],
  others: readonly OtherAsk[],
): Promise<Outcome | undefined> {
  if (out.status !== "awaiting_approval" || !elsewhere.length || typeof out.action_id !== "string")
    return undefined;
  // "… if it applies", "none needed", "if you can, apply …": the user takes the change
  // without it (or does not want it), and is shown so (review 65).
  if (elsewhere.some((e) => hedged(intent, e.words))) return undefined;
  const cancelled = await cancelAction(ctx, { action_id: out.action_id });
  if (cancelled.outcome !== "applied") return undefined;
  const capability = String(out.capability);
  const why = elsewhere.map((e) => `"${e.words}": ${takenElsewhere(capability, e)}`).join("; ");
  // Only a whole ask is cut from the words ("with the … code"); a single word named inside the
  // change's own words leaves the rest of its phrase behind ("by card (with the X)"), so the
  // next start is offered without words: the agent fills what the answer asks.
  const rest = elsewhere.reduce<string | undefined>(
    (t, e) => (t === undefined || !/\s/.test(e.words.trim()) ? undefined : withoutPhrase(t, e.words)),
    intent,
  );
  const entity = (out.entity as { id?: unknown } | undefined)?.id;
  return {
    outcome: "rejected",
    reason: "words_not_doable",
    message: `Not sent for approval, nothing started: the user's words ask what ${capability} cannot do (${why}). Tell the user; if they want it without that, start it again without those words`,
    retryable: false,
    capability,
    // The words' other asks, said as a start by words says them: none is lost with the start
    // (review 65b: "… with the SAVE5 code and send it to my home address" left the address unsaid).
    ...(others.length ? { also_asked: others.map(({ pointed: _, unapproved: __, ...a }) => a) } : {}),
    next_actions: [
      {
        tool: "start_action",
        args: {
          capability,
          ...(typeof entity === "string" ? { entity_id: entity } : {}),
          ...(rest ? { intent: rest } : {}),
        },
        description: "Only on the user's word: the same change without what it cannot do",
      },
      ...otherAskCalls(others, 0),
    ],
  };
}

/**
 * Words that make an ask hang on whether it can be done, or deny it, or only wish for it: "if it
 * applies", "where possible", "without a …", "no … needed", "don't apply any", "would be nice".
 */
const HEDGE =
  /\b(?:if|unless|whenever|possible|in case|no|not|without|never|nor|any|maybe|perhaps|ideally|try|would|could|might|optional(?:ly)?|skip|forget|drop|leave out)\b|n't\b/i;

/** A polite opening that asks, hedging nothing ("Could you pay …", "Would you please …"). */
const POLITE = /(^|[.;!?]\s*)(?:could|would|can|will)\s+you\s+(?:please\s+)?/gi;

/** Whether the sentence holding the words (both sides of them) hedges or denies them. */
function hedged(intent: string, words: string): boolean {
  const text = intent.replace(POLITE, "$1");
  const at = text.toLowerCase().indexOf(words.toLowerCase());
  if (at < 0) return HEDGE.test(text);
  const start = Math.max(...[".", ";", "!", "?"].map((m) => text.lastIndexOf(m, at - 1))) + 1;
  const end = text.slice(at).search(/[.;!?]/);
  return HEDGE.test(text.slice(start, end < 0 ? undefined : at + end));
}

/**
 * The request without one phrase of it (case aside), and the comma or "and" that joined it; undefined
 * when the phrase is not in it as written.
 */
function withoutPhrase(text: string, phrase: string): string | undefined {
  const at = text.toLowerCase().indexOf(phrase.toLowerCase());
  if (at < 0 || !phrase.trim()) return undefined;
  const before = text.slice(0, at).replace(/(?:[,;]\s*|\s+and\s+|\s+)$/i, "");
  const after = text.slice(at + phrase.length);
  const joined = `${before}${after}`
    .replace(/\s+([,.;!?])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
  return joined || undefined;
}
