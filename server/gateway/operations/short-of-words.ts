import { takenElsewhere } from "../../connectors/sdk/other-asks-lines";
import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { TrustedContext } from "../trusted-context";
import type { FieldElsewhere } from "./fields-elsewhere";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;

/**
 * A change a person must approve is never sent for approval short of what the user's words asked
 * of it: their screen would show a change they did not ask for. Set CK (both hosts): "Pay for my
 * pending order by card, with the SAVE5 coupon" opened the payment's approval without the coupon
 * (a payment takes none; only a new order does), with one "not done" line the model on a plain
 * host read after the fact, and the model on a host that shows an approval at once never read;
 * Alice declined on her screen, and the agent learned why in two more calls. The action is
 * cancelled before anyone saw it (nothing ran) and the answer says why, with the start that does
 * the rest once the user says to go on without it. Undefined when it was not cancelled. A start
 * that still needs fields says it as not done, and the agent reads it before any approval opens.
 */
export async function shortOfWords(
  cancelAction: Operation,
  ctx: TrustedContext,
  intent: string,
  out: Outcome,
  elsewhere: readonly FieldElsewhere[],
): Promise<Outcome | undefined> {
  if (out.status !== "awaiting_approval" || !elsewhere.length || typeof out.action_id !== "string")
    return undefined;
  // "… and use a coupon if one applies": the user takes the change without it, and is shown so.
  if (elsewhere.some((e) => onCondition(intent, e.words))) return undefined;
  const cancelled = await cancelAction(ctx, { action_id: out.action_id });
  if (cancelled.outcome !== "applied") return undefined;
  const capability = String(out.capability);
  const why = elsewhere.map((e) => `"${e.words}": ${takenElsewhere(capability, e as never)}`).join("; ");
  const rest = elsewhere.reduce<string | undefined>(
    (t, e) => (t === undefined ? t : withoutPhrase(t, e.words)),
    intent,
  );
  const entity = (out.entity as { id?: unknown } | undefined)?.id;
  return {
    outcome: "rejected",
    reason: "words_not_doable",
    message: `Not sent for approval, nothing started: the user's words ask what ${capability} cannot do (${why}). Tell the user; if they want it without that, start it again without those words`,
    retryable: false,
    capability,
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
    ],
  };
}

/** Words that make an ask hang on whether it can be done ("if one applies", "where possible"). */
const CONDITION = /\b(?:if|unless|whenever|where possible|when possible|in case)\b/i;

/** Whether the words, up to the end of their sentence in the request, ask only on a condition. */
function onCondition(intent: string, words: string): boolean {
  const at = intent.toLowerCase().indexOf(words.toLowerCase());
  const rest = at < 0 ? words : (intent.slice(at).split(/[.;!?]/)[0] ?? words);
  return CONDITION.test(rest);
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
