import type { OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import type { TrustedContext } from "../trusted-context";
import { fieldsElsewhere } from "./fields-elsewhere";
import { heldValueAsks } from "./held-value-asks";
import type { HeldValuesNamed } from "./held-values-named";
import { otherAskCalls } from "./other-ask-calls";
import { type Holders, otherAsks, type StartedAsk } from "./other-asks";
import { runOtherAsks } from "./other-asks-run";
import type { PossibleOn } from "./pick-by-record";
import { shortOfWords } from "./short-of-words";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;

/** The single steps the other asks are read and run with (compose-action-steps.ts's). */
export interface OtherAskSteps {
  searchCapabilities: Operation;
  possibleOn: PossibleOn;
  cancelAction: Operation;
  /** What the words name that a record holds now, per capability (held-values-named.ts). */
  heldNamed?: HeldValuesNamed;
}

/**
 * One ask's words searched alone, as the caller may see capabilities (audited). Each text is
 * searched once per function made: one start's readings of its asks share their searches.
 */
export function searchAskAlone(search: Operation, ctx: TrustedContext | null) {
  const done = new Map<string, Promise<CapabilityHit[]>>();
  return (query: string): Promise<CapabilityHit[]> => {
    const key = query.trim().toLowerCase();
    const known = done.get(key);
    if (known) return known;
    const found = (async () => {
      const out = await search(ctx, { query, limit: 10 });
      return out.outcome === "applied"
        ? ((out.results ?? []) as CapabilityHit[]).filter((h) => !h.another_ask)
        : [];
    })();
    done.set(key, found);
    return found;
  };
}

/** How a start's words were read: its searches, and what it was started for (other-asks.ts). */
export interface AskReading {
  search?: (query: string) => Promise<CapabilityHit[]>;
  askedAs?: string;
  ownAsk?: number;
  /** The values the start's words replaced (its `replaced`), kept past the confirm that ran it. */
  replaced?: Record<string, string>;
}

/**
 * The started action's answer, with what else the words asked: where the first change ran, each
 * other ask that needs nobody runs in this same call (other-asks-run.ts, through `start`, the call
 * the agent would make next); the rest are said with the call that does each. It never ends the
 * flow with the rest of the request unsaid (other-asks.ts; a refused start's: unread).
 */
export async function withOtherAsksOf(
  steps: OtherAskSteps,
  ctx: TrustedContext,
  intent: string | undefined,
  out: Outcome,
  setWords: readonly string[],
  start: (args: Record<string, unknown>) => Promise<Outcome>,
  carried: readonly string[] = [],
  reading: AskReading = {},
): Promise<Outcome> {
  // A preview saves nothing, yet the words' other asks are said beside it, never run (set AW: a
  // dry run of "put it on hold and make it high priority" showed the status change alone).
  const previewed = out.outcome === "preview";
  if (!intent || (typeof out.action_id !== "string" && !previewed) || typeof out.capability !== "string")
    return out;
  const started: StartedAsk = {
    capability: out.capability,
    entity: out.entity as { type: string; id: string } | undefined,
    ...(reading.askedAs && reading.askedAs !== out.capability ? { askedAs: reading.askedAs } : {}),
    ...(reading.ownAsk !== undefined ? { ownAsk: reading.ownAsk } : {}),
  };
  const search = reading.search ?? searchAskAlone(steps.searchCapabilities, ctx);
  const held = steps.heldNamed;
  const holders: Holders | undefined = held
    ? async (words, record, only) =>
        (await held(ctx, { words, ...(record ? { entityId: record } : {}), only }))
          .filter((n) => Object.keys(n.held).length)
          .map((n) => n.capability)
    : undefined;
  const read = await otherAsks(intent, started, search, setWords, holders);
  const { more } = read;
  // Words the action carries as its text are that text, never an ask (review 49: a reply whose
  // text was "we will … give it to Y" handed the record to Y in the same call).
  // Words naming the value the started change replaces are that change (held-value-asks.ts).
  const unsaid = await heldValueAsks(
    steps.heldNamed,
    ctx,
    {
      capability: out.capability,
      entity: started.entity,
      kind: started.entity?.type,
      from_words: out.from_words,
      replaced: reading.replaced ?? (out.replaced as Record<string, string> | undefined),
    },
    read.asks.filter((a) => !carried.some((t) => holdsWords(t, a.words))),
  );
  // Words naming a field only another capability takes are said as not done by this one (an ask
  // that is only that field is no call to start the other): fields-elsewhere.ts.
  const { asks: asked, elsewhere } =
    out.status === "refused"
      ? { asks: unsaid, elsewhere: [] }
      : await fieldsElsewhere(intent, out.capability, unsaid, setWords, search, [
          ...carried,
          ...takenTexts(out),
        ]);
  const short = await shortOfWords(steps.cancelAction, ctx, intent, out, elsewhere, asked);
  if (short) return short;
  // A call on a record is offered only where its capability can take that record now (the
  // check a start makes, one evaluation per ask): a cancel of unpaid orders was offered on a
  // delivered, paid one (issue 23). Otherwise the ask is said as not possible there now.
  const asks = await Promise.all(
    asked.map(async (a) => {
      if (!a.capability) return out.status === "refused" ? { ...a, unread: true as const } : a;
      if (!a.entity_id) return a;
      const on = await steps.possibleOn(ctx, { entityId: a.entity_id, only: [a.capability] });
      if (!on || on.next.length) return a;
      const instead = await anotherThatTakes(steps, ctx, search, a.words, a.entity_id, a.capability);
      // Offered as its call, never run here: its own approval was not weighed.
      if (instead) return { words: a.words, capability: instead, entity_id: a.entity_id };
      return { ...a, not_now: true as const };
    }),
  );
  if (!asks.length && !more && !elsewhere.length) return out;
  // The first change ran: the others that need nobody run now too, as the agent's next call would.
  const { done, left } =
    out.status === "completed"
      ? await runOtherAsks(asks, { start, cancel: (id) => steps.cancelAction(ctx, { action_id: id }) })
      : { done: [], left: asks };
  const said = [...left.map(({ pointed: _, unapproved: __, ...a }) => a), ...elsewhere];
  return {
    ...out,
    ...(done.length ? { also_done: done } : {}),
    ...(said.length ? { also_asked: said } : {}),
    next_actions: [...(out.next_actions ?? []), ...otherAskCalls(left, more)],
  };
}

/**
 * Another match of an ask's words that can take its record now, where the best cannot: set Z's
 * "…, and pay for it by card" matched a checkout first, and the answer told the user the order
 * could not be paid, though paying it could.
 */
async function anotherThatTakes(
  steps: OtherAskSteps,
  ctx: TrustedContext,
  search: (query: string) => Promise<CapabilityHit[]>,
  words: string,
  record: string,
  best: string,
): Promise<string | undefined> {
  const others = (await search(`${words} ${record}`))
    .filter((h) => h.capability !== best && !h.not_for?.length && !h.topic_only && !h.off_topic)
    .map((h) => h.capability);
  if (!others.length) return undefined;
  const on = await steps.possibleOn(ctx, { entityId: record, only: others });
  return others.find((c) => on?.next.some((n) => n.args?.capability === c));
}

/** The texts the start took from the words for its own fields (from_words shows them quoted). */
function takenTexts(out: Outcome): string[] {
  const words = out.from_words;
  if (!words || typeof words !== "object") return [];
  return Object.values(words as Record<string, unknown>).filter(
    (v): v is string => typeof v === "string" && v.startsWith('"'),
  );
}

/** The words in lower case, each run of what is not a letter or a digit one space. */
const bare = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;

/** Whether `text` holds `words` whole, case and punctuation aside. */
function holdsWords(text: string, words: string): boolean {
  const said = bare(words);
  return said.trim() !== "" && bare(text).includes(said);
}

/**
 * The texts a start carries in its own fields as sent (a comment's body, a form's text field):
 * the user's text, whose words are what the action writes, not what else it asks.
 */
export function carriedTexts(patch: unknown): string[] {
  if (!patch || typeof patch !== "object") return [];
  return Object.values(patch).filter((v): v is string => typeof v === "string" && /\s/.test(v.trim()));
}
