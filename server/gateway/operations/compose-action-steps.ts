import type { NextAction, OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import { HELD_FOR_CHECK } from "../../engine/hold-for-check";
import { settledBySetValue, settledByVerb } from "../../engine/set-value-settles";
import { asksOnlyToRead, opensWithVerbOf, topMatch } from "../../engine/top-match";
import type { TrustedContext } from "../trusted-context";
import type { ActionSteps } from "./action-steps";
import { confirmOnServerKey } from "./confirm-on-server-key";
import { firstOfSeparateAsks, firstOfSeveralAsks } from "./first-ask";
import { heldOnCondition } from "./held-condition";
import { HELD_TEXT, heldForText } from "./held-text";
import { insteadKey, insteadOfRefused } from "./instead-of-refused";
import { advanceActionInputSchema, startActionInputSchema } from "./operation-schemas";
import { otherMatches } from "./other-matches";
import { ownAskWords } from "./own-ask-words";
import { partOfRecordHeld } from "./part-of-record";
import { pickByFields } from "./pick-by-fields";
import { pickByHeldValue } from "./pick-by-held-value";
import { narrowedTie, type PickedBeyondWords, pickByRecord } from "./pick-by-record";
import { pickedBy } from "./picked-by";
import { recordHeld } from "./points-at-nothing-said";
import { readingPath } from "./reading-path";
import { valueNoneTakesRefusal } from "./value-none-takes";
import { type AskReading, carriedTexts, searchAskAlone, withOtherAsksOf } from "./with-other-asks";
import { withPossible } from "./with-possible";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;
/** Every start and advance asks: the engine makes the key only where one would run the change. */
const SERVER_KEY = { serverKey: true } as const;

/**
 * start_action and advance_action as agents call them: each composes the single-step operations,
 * so every step keeps its own permission check and audit row (a search, a start, a confirm).
 * - start_action by the user's words: search, then start the best match where it takes every
 *   field sent and leads clearly (top-match's CLEAR_LEAD) the next match that takes them too,
 *   or is that best match and the words open with the verb it is named for (opensWithVerbOf);
 *   the answer names the other matches. A value the words set that no match takes refuses.
 * - a near tie the record settles: where the start names a record (entity_id, or the one id the
 *   words quote), the matches near the best whose start that record refuses now drop out
 *   (possibleOn, one evaluation per near-tied match); a best left leading clearly starts under
 *   the rules below. Only in favour of the best: it is never dropped (pick-by-record.ts).
 * - fields the best match does not take: the only match that takes every field sent (or the
 *   clear leader of those that do) is started, never run at once: no key of the server's or the
 *   agent's, no confirm; it stops at its confirmation or its missing fields, and `picked_because`
 *   says it takes the fields sent and names the best match by the words (pick-by-fields.ts).
 *   Otherwise the answer is the matches, to start one by id.
 * - a change that is complete, needs no person's approval, whose record the user's words named
 *   (or the only one it fits), and whose confirm this caller's permissions let through, is
 *   confirmed at once (the confirm operation, its own permission verb), under the agent's key or
 *   one the server made from the request (server-made-key.ts): resent, it is the first outcome.
 *   Where a person must approve, no key is used and the action waits at its confirmation.
 */
export function composeActionSteps(steps: ActionSteps): { startAction: Operation; advanceAction: Operation } {
  async function confirmWhenReady(
    ctx: TrustedContext | null,
    key: unknown,
    answer: Outcome,
    intent?: string,
    reading: AskReading = {},
  ): Promise<Outcome> {
    // The server's key is the gateway's to use, never part of the answer.
    const { server_key: made, ...out } = answer;
    const open = out.outcome === "applied" || out.outcome === "input_required";
    // Waiting for a person, it is checked on their screen: never "then confirm_action" too (set BC).
    if (!open || typeof out.action_id !== "string" || out.status === "awaiting_approval") return out;
    const search = ctx ? (reading.search ?? searchAlone(ctx)) : null;
    const why =
      search && intent && (await heldForText(intent, out, reading, search))
        ? HELD_TEXT
        : search && intent && (await recordHeld(intent, out, reading.ownAsk, search));
    if (why) {
      // Kept on the action: a later step completing it waits for confirm_action too (review 58d).
      await steps.holdForCheck?.(ctx, out.action_id);
      return { ...out, message: `${out.message}${why}` };
    }
    // Held on its action by an earlier answer: only the agent's confirm_action runs it (review 58e:
    // a resend, or an advance under the agent's key, ran it).
    if (out.held_for_check && !/not run yet/.test(String(out.message)))
      return { ...out, message: `${out.message}${HELD_FOR_CHECK}` };
    if (out.outcome !== "applied" || out.held_for_check) return out;
    const part = partOfRecordHeld(intent, out);
    if (part) {
      // Kept on the action, as the holds above: a resend must not run it (review 62c).
      await steps.holdForCheck?.(ctx, out.action_id);
      return { ...out, message: `${out.message}${part}` };
    }
    const held = heldOnCondition(intent, out);
    if (typeof made === "string")
      return (
        held ?? {
          ...(await confirmOnServerKey(steps.confirmWithServerKey, ctx, out, made)),
          ...pickedBy(out),
        }
      );
    const next = (out.next_actions ?? []) as NextAction[];
    const ready = next.some((n) => n.tool === "confirm_action" && !n.requires_user_approval);
    // The record was the agent's pick among several: the user says which before anything runs.
    if (!ready || out.status === "failed" || out.ask_user || typeof key !== "string") return out;
    if (held) return held;
    const done = await steps.confirmAction(ctx, {
      action_id: out.action_id,
      version: out.version,
      idempotency_key: key,
    });
    return { ...done, ...pickedBy(out) };
  }

  async function startAction(ctx: TrustedContext | null, raw: unknown): Promise<Outcome> {
    const parsed = startActionInputSchema.safeParse(raw);
    // A bad argument, or a capability named: the start operation answers (and audits) as is,
    // with the words' other asks as a start found by them has (set V: a form's submit with the
    // user's words, "move it to shipping and give it to Sara", left the second ask unsaid).
    if (!ctx || !parsed.success || parsed.data.capability) {
      const started = await steps.startAction(ctx, raw, SERVER_KEY);
      const out = await confirmWhenReady(ctx, parsed.data?.idempotency_key, started, parsed.data?.intent);
      // A resend under the agent's key is the first start's answer: its other asks ran with it
      // (review 49: past the server's window, a resend ran them again), as a resend by words.
      if (!ctx || !parsed.data?.intent || parsed.data.dry_run || started.reason === "idempotent_replay")
        return out;
      const setWords = Array.isArray(started.field_words) ? (started.field_words as string[]) : [];
      return withOtherAsks(ctx, parsed.data.intent, out, setWords, carriedTexts(parsed.data.patch), {
        replaced: started.replaced as Record<string, string> | undefined,
      });
    }
    const { intent, ...rest } = parsed.data;
    const withWords = { ...rest, intent };
    // A resend under its key: the capability it started, not whatever the words match now.
    const earlier = rest.idempotency_key ? await steps.startedWith(ctx, rest.idempotency_key) : null;
    if (earlier && rest.idempotency_key) {
      // Refused, it handed over under a key made from the agent's: that start is the answer.
      const handedKey = insteadKey(rest.idempotency_key);
      const handed = await steps.startedWith(ctx, handedKey);
      const resent = handed
        ? { ...withWords, capability: handed, idempotency_key: handedKey }
        : { ...withWords, capability: earlier };
      return confirmWhenReady(ctx, resent.idempotency_key, await steps.startAction(ctx, resent), intent);
    }
    // A record named beside the words says what they are about (its id prefix names the entity).
    const query = rest.entity_id ? `${intent?.slice(0, 430)} ${rest.entity_id}` : intent;
    const found = await steps.searchCapabilities(ctx, { query, limit: 3 });
    if (found.outcome !== "applied") return found;
    // One start is one capability: the best matches of the words' other asks are said after it
    // runs (otherAsks), not weighed against it here.
    const ranked = ((found.results ?? []) as CapabilityHit[]).filter((h) => !h.another_ask);
    // A capability whose description says it is not for what the words ask is never started, nor
    // one that does none of what they ask and only concerns the same kind of record.
    const hits = ranked.filter((h) => !h.not_for?.length && !h.topic_only);
    const closest = ranked[0];
    if (!hits.length && closest?.topic_only && !closest.not_for?.length)
      return withPossible(steps.possibleOn, ctx, rest.entity_id, intent, ranked, {
        outcome: "rejected",
        reason: "no_capability_fits",
        // Neither the matches nor their start calls: those are what sent a model to start one.
        message: `No capability does what these words ask (${ranked.map((h) => h.capability).join(", ")} only concern the same kind of record). ${readingPath(ctx, intent ?? "")}`,
        retryable: false,
        next_actions: [],
      });
    if (!hits.length && closest)
      return withPossible(steps.possibleOn, ctx, rest.entity_id, intent, ranked, {
        outcome: "rejected",
        reason: "no_capability_fits",
        message: `No capability does this; the closest, ${closest.capability}, is not for it (${closest.when_not_to_use})`,
        retryable: false,
        results: ranked,
        next_actions: found.next_actions,
      });
    // The best match applies to another kind of record than the words are about (a note on a
    // ticket that mentions another record's words): it matched on words alone, so nothing
    // does this; a weaker match of the right record is never promoted in its place.
    if (hits.length && hits.every((h) => h.off_topic))
      return withPossible(steps.possibleOn, ctx, rest.entity_id, intent, [], {
        outcome: "rejected",
        reason: "no_capability_fits",
        message: `No capability does what these words ask (${hits.map((h) => h.capability).join(", ")} concern another kind of record). Search the capabilities with other words, or read: ${readingPath(ctx, intent ?? "")}`,
        retryable: false,
        next_actions: [{ tool: "search_capabilities", description: "Find a capability with other words" }],
      });
    const fields = Object.keys(rest.patch ?? {});
    // Matches of another kind of record than the words name are no rivals of a best of that kind
    // (set Y: "put the wrong size tee ticket on pending" tied a ticket's status with an order's
    // payment, on "pending"). A best of another kind keeps the tie: review 56c found a lone
    // weaker match of the named kind promoted ("Exchange the tee ticket while it's pending" put
    // it on hold at once).
    const rivals = hits[0] && !hits[0].off_topic ? hits.filter((h) => !h.off_topic) : hits;
    const top = topMatch(rivals);
    // Words that only ask to find or show start no change (a resolve started for "find the
    // ticket about a login problem"): reading is where they go.
    if (intent && top && !top.hit.read && asksOnlyToRead(intent))
      return {
        outcome: "rejected",
        reason: "no_capability_fits",
        message: `These words ask to find or show, not to change anything: nothing was started. ${readingPath(ctx, intent)}`,
        retryable: false,
        next_actions: [],
      };
    const fits = top ? fields.every((f) => top.hit.inputs.includes(f)) : false;
    // The fields may settle a near tie, and only in favour of the best match: among the matches
    // that take them, the best must still be the best one of all and lead clearly.
    const amongFitting = topMatch(rivals.filter((h) => fields.every((f) => h.inputs.includes(f))));
    // Several asks whose matches tie: the one asked first starts (the rest are named), before
    // a later ask's verb settles the tie for itself; so does a first ask on a record of its own
    // beside a later one's on another, whatever the whole words lead with (first-ask.ts).
    const search = searchAlone(ctx);
    const firstAsk =
      !fields.length && intent && top
        ? ((top.clear ? undefined : await firstOfSeveralAsks(intent, hits, search)) ??
          (await firstOfSeparateAsks(intent, top.hit, search)))
        : undefined;
    const named =
      !firstAsk &&
      !!top &&
      !!intent &&
      opensWithVerbOf(intent, top.hit.capability, top.hit.applies_to, top.hit.trigger);
    // A best match of another kind of record than the words name is never started at once either.
    const pick =
      firstAsk ??
      (fits && (amongFitting?.clear || named) && amongFitting?.hit === top?.hit && !top?.hit.off_topic
        ? top?.hit
        : !fields.length && intent
          ? settledByVerb(intent, hits, rivals)
          : undefined);
    // Past the words: the record named settles a near tie (its refusing matches drop out; one
    // refusing the best narrows the tie to the starts it can take), or the fields sent mean the
    // one match that takes them all (pick-by-record.ts, pick-by-fields.ts).
    const byRecord =
      !pick && fits
        ? await pickByRecord(steps.possibleOn, ctx, { entityId: rest.entity_id, words: intent }, hits, fields)
        : undefined;
    const tie = byRecord && !("hit" in byRecord) ? byRecord : undefined;
    const beyond =
      byRecord && "hit" in byRecord ? byRecord : pick || fits ? undefined : pickByFields(hits, fields);
    // What the words alone did not prefer is started for the agent to check, never run at once.
    if (beyond && (beyond.hit !== top?.hit || beyond.checkOnly))
      return startForCheck(ctx, withWords, beyond, hits);
    // The words clearly mean the best match and only a field it lacks kept it from starting: its
    // own start refuses the field (nothing is created) and names the field most likely meant.
    const clearButFields = !fits && !!top && (top.clear || named) && !top.hit.off_topic;
    if (!pick && !beyond && clearButFields) {
      const out = await steps.startAction(ctx, { ...withWords, capability: top.hit.capability });
      // The by-words path's own reason: no capability the words found takes these fields.
      if (out.reason === "field_not_allowed") out.reason = "no_capability_takes_fields";
      Object.assign(out, otherMatches(hits, top.hit.capability));
      return out;
    }
    // Left tied by the words and by the record: the one near match that takes a value they set.
    const byValue = !pick && !beyond && !tie && intent ? settledBySetValue(intent, rivals) : undefined;
    // Still tied: the one near match that takes a field whose value on the record the words name.
    const byHeld =
      !pick && !beyond && !tie && !byValue && intent && !fields.length && steps.heldNamed
        ? await pickByHeldValue(steps.heldNamed, ctx, { words: intent, entityId: rest.entity_id }, rivals)
        : undefined;
    if (byHeld) return startForCheck(ctx, withWords, byHeld, hits);
    const chosen = pick ?? beyond?.hit ?? byValue;
    // A change nobody approves, its verb unsaid ("buy the unpaid kettle"), is started for a check.
    const verbs = chosen !== byValue && !chosen?.read && chosen?.verb_elsewhere?.join(", ");
    if (chosen && verbs && chosen.requires_approval === false) {
      const because = `the words ask to ${verbs}, which ${chosen.capability} does not do: check it is what the user wants`;
      return startForCheck(ctx, withWords, { hit: chosen, because, checkOnly: true }, hits);
    }
    const unmatched =
      (chosen ? !firstAsk : fits) && intent && valueNoneTakesRefusal(ctx, intent, rivals, hits, chosen);
    if (unmatched) return unmatched;
    if (!chosen) {
      const none: Outcome = {
        outcome: "rejected",
        reason: !hits.length
          ? "no_capability_matches"
          : fits
            ? "ambiguous_intent"
            : "no_capability_takes_fields",
        message: !hits.length
          ? "No capability matches these words; rephrase them"
          : fits
            ? "Several capabilities match these words about as well; start the one meant by its id"
            : `The best match does not take ${fields.filter((f) => !top?.hit.inputs.includes(f)).join(", ")}; start the one meant by its id with its own inputs`,
        retryable: false,
        results: hits,
        next_actions: found.next_actions,
      };
      return tie ? narrowedTie(none, tie) : none;
    }
    // Words that ask several things, each on a record it names: the start reads its own ask's.
    const own = intent && !fields.length ? await ownAskWords(intent, chosen, search) : undefined;
    const asked = own ? { ...withWords, intent: own.words } : withWords;
    // Its key is the whole request's: another request sharing the ask is no resend of this one.
    const keyed = own ? { ...SERVER_KEY, request: intent } : SERVER_KEY;
    const first = await steps.startAction(ctx, { ...asked, capability: chosen.capability }, keyed);
    const startKeyed = (c: TrustedContext, r: unknown) => steps.startAction(c, r, keyed);
    const out = (await insteadOfRefused(startKeyed, ctx, asked, first, hits)) ?? first;
    Object.assign(out, otherMatches(hits, out.capability));
    if (beyond && out.capability === chosen.capability) out.picked_because = beyond.because;
    const setWords = Array.isArray(out.field_words) ? (out.field_words as string[]) : [];
    const replaced = out.replaced as Record<string, string> | undefined;
    const reading = { search, askedAs: chosen.capability, ownAsk: own?.index, replaced };
    return withOtherAsks(
      ctx,
      intent,
      await confirmWhenReady(ctx, rest.idempotency_key, out, intent, reading),
      setWords,
      carriedTexts(rest.patch),
      reading,
    );
  }

  /**
   * A start the words alone did not prefer (the fields', pick-by-fields.ts): started without
   * a key of the server's or the agent's, so nothing runs at once, nor on a resend under the key
   * (a resend starts it afresh, to the same stop); it stops at its confirmation or its missing
   * fields, and the answer says why it was picked, naming the best match by the words.
   */
  async function startForCheck(
    ctx: TrustedContext,
    withWords: Record<string, unknown>,
    picked: PickedBeyondWords,
    hits: readonly CapabilityHit[],
  ): Promise<Outcome> {
    const { idempotency_key: _key, ...unkeyed } = withWords;
    const { server_key: _made, ...out } = await steps.startAction(ctx, {
      ...unkeyed,
      capability: picked.hit.capability,
    });
    const said = { ...out, picked_because: picked.because, ...otherMatches(hits, picked.hit.capability) };
    const setWords = Array.isArray(out.field_words) ? (out.field_words as string[]) : [];
    const intent = typeof withWords.intent === "string" ? withWords.intent : undefined;
    return withOtherAsks(ctx, intent, said, setWords, carriedTexts(withWords.patch));
  }

  /**
   * Whether a change with text taken from words that ask more waits for the agent's check
   * (held-text.ts): words with several asking clauses, of which the other-asks reading finds one
   * this action does not do ("resolve tkt_1; resolution: …" is one ask with its text).
   */
  const searchAlone = (ctx: TrustedContext | null) => searchAskAlone(steps.searchCapabilities, ctx);

  /** The answer with the words' other asks: run where they need nobody, else each with its call. */
  function withOtherAsks(
    ctx: TrustedContext,
    intent: string | undefined,
    out: Outcome,
    setWords: readonly string[],
    carried: readonly string[] = [],
    reading: AskReading = {},
  ) {
    return withOtherAsksOf(
      steps,
      ctx,
      intent,
      out,
      setWords,
      // Keyed by the whole request: another request sharing an ask is no resend of it (review
      // 57b: "also done … nothing ran twice" though the record had been set back between).
      async (args) =>
        confirmWhenReady(
          ctx,
          undefined,
          await steps.startAction(ctx, args, { ...SERVER_KEY, ...(intent ? { request: intent } : {}) }),
          String(args.intent),
        ),
      carried,
      reading,
    );
  }

  async function advanceAction(ctx: TrustedContext | null, raw: unknown): Promise<Outcome> {
    const parsed = advanceActionInputSchema.safeParse(raw);
    return confirmWhenReady(
      ctx,
      parsed.data?.idempotency_key,
      await steps.advanceAction(ctx, raw, SERVER_KEY),
    );
  }

  return {
    // The words that set fields (and the values they replace) are the gateway's to read
    // (withOtherAsks), never part of the answer.
    // The start the agent called (never a try of another ask's) takes its held actions' place.
    startAction: async (ctx, raw) => {
      const { field_words: _read, replaced: _replaced, ...out } = await startAction(ctx, raw);
      return steps.replaceHeld ? steps.replaceHeld(ctx, out) : out;
    },
    advanceAction,
  };
}
