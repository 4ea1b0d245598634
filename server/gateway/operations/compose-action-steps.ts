import type { NextAction, OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import { opensWithVerbOf, topMatch } from "../../engine/top-match";
import type { TrustedContext } from "../trusted-context";
import { advanceActionInputSchema, startActionInputSchema } from "./operation-schemas";
import { readingPath } from "./reading-path";

type Outcome = OutcomeBase & Record<string, unknown>;
type Operation = (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>;

interface Steps {
  searchCapabilities: Operation;
  startAction: Operation;
  advanceAction: Operation;
  confirmAction: Operation;
  /** The capability of the action the caller's key started, if any. */
  startedWith: (ctx: TrustedContext, idempotencyKey: string) => Promise<string | null>;
  /** Whether this caller's confirm of the capability would be let through (previewed, nothing consumed). */
  confirmAllowed: (ctx: TrustedContext, capability: string) => Promise<boolean>;
  /** The field holding the id of the record a capability applies to, if any. */
  recordFieldOf: (capability: string) => string | null;
}

/**
 * start_action and advance_action as agents call them: each composes the single-step operations,
 * so every step keeps its own permission check and audit row (a search, a start, a confirm).
 * - start_action by the user's words: search, then start the best match where it takes every
 *   field sent and leads clearly (top-match's CLEAR_LEAD) the next match that takes them too,
 *   or is that best match and the words open with the verb it is named for (opensWithVerbOf);
 *   otherwise the answer is the matches, to start one by id. A weaker match is never promoted
 *   because the best one does not take a field: with a key it could run at once, before the
 *   agent saw what was chosen. Nothing happens until confirm, so
 *   a wrong match costs a cancel, never an effect; the answer names the other matches.
 * - with an idempotency_key: once the action is complete and no person must approve it, confirm
 *   at once (the confirm operation, with its own permission verb). Where a person must approve,
 *   the key is not used and the action waits at its confirmation as without one.
 */
export function composeActionSteps(steps: Steps): { startAction: Operation; advanceAction: Operation } {
  async function confirmWhenReady(
    ctx: TrustedContext | null,
    key: unknown,
    out: Outcome,
    sameCall?: "start",
  ): Promise<Outcome> {
    if (out.outcome !== "applied" || typeof out.action_id !== "string") return out;
    const next = (out.next_actions ?? []) as NextAction[];
    const ready = next.some((n) => n.tool === "confirm_action" && !n.requires_user_approval);
    // The record was the agent's pick among several: the user says which before anything runs.
    if (!ready || out.status === "failed" || out.ask_user) return out;
    if (typeof key !== "string") return ctx ? waitsOnlyForKey(ctx, out, sameCall) : out;
    return steps.confirmAction(ctx, { action_id: out.action_id, version: out.version, idempotency_key: key });
  }

  /**
   * A change ready to run that waits only because no key was sent: said plainly, so the agent
   * confirms it (and next time sends the key at start) rather than looking for an approval that
   * is not due. Only where this caller's confirm would be let through as well (an admin's rule
   * may ask first). Issue 23: a model that could not tell took a call more.
   */
  async function waitsOnlyForKey(ctx: TrustedContext, out: Outcome, sameCall?: "start"): Promise<Outcome> {
    if (out.status !== "open" || typeof out.capability !== "string") return out;
    if (!(await steps.confirmAllowed(ctx, out.capability))) return out;
    // With a key, a start runs at once only on a record the user's words named (else it asks
    // which): the same call is offered only then.
    const field = steps.recordFieldOf(out.capability);
    const named =
      !field || typeof (out.from_words as Record<string, unknown> | undefined)?.[field] === "string";
    const also = sameCall && named ? ", as would this same call sent with an idempotency_key" : "";
    return { ...out, message: `${out.message}; it needs no approval: confirm_action runs it${also}` };
  }

  async function startAction(ctx: TrustedContext | null, raw: unknown): Promise<Outcome> {
    const parsed = startActionInputSchema.safeParse(raw);
    // A bad argument, or a capability named: the start operation answers (and audits) as is.
    if (!ctx || !parsed.success || parsed.data.capability)
      return confirmWhenReady(ctx, parsed.data?.idempotency_key, await steps.startAction(ctx, raw), "start");
    const { intent, ...rest } = parsed.data;
    const withWords = { ...rest, intent };
    // A resend under its key: the capability it started, not whatever the words match now.
    const earlier = rest.idempotency_key ? await steps.startedWith(ctx, rest.idempotency_key) : null;
    if (earlier)
      return confirmWhenReady(
        ctx,
        rest.idempotency_key,
        await steps.startAction(ctx, { ...withWords, capability: earlier }),
        "start",
      );
    // A record named beside the words says what they are about (its id prefix names the entity).
    const query = rest.entity_id ? `${intent?.slice(0, 430)} ${rest.entity_id}` : intent;
    const found = await steps.searchCapabilities(ctx, { query, limit: 3 });
    if (found.outcome !== "applied") return found;
    const ranked = (found.results ?? []) as CapabilityHit[];
    // A capability whose description says it is not for what the words ask is never started, nor
    // one that does none of what they ask and only concerns the same kind of record.
    const hits = ranked.filter((h) => !h.not_for?.length && !h.topic_only);
    const closest = ranked[0];
    if (!hits.length && closest?.topic_only && !closest.not_for?.length)
      return {
        outcome: "rejected",
        reason: "no_capability_fits",
        // Neither the matches nor their start calls: those are what sent a model to start one.
        message: `No capability does what these words ask (${ranked.map((h) => h.capability).join(", ")} only concern the same kind of record). ${readingPath(ctx, intent ?? "")}`,
        retryable: false,
        next_actions: [],
      };
    if (!hits.length && closest)
      return {
        outcome: "rejected",
        reason: "no_capability_fits",
        message: `No capability does this; the closest, ${closest.capability}, is not for it (${closest.when_not_to_use})`,
        retryable: false,
        results: ranked,
        next_actions: found.next_actions,
      };
    // The best match applies to another kind of record than the words are about (a note on a
    // ticket that mentions another record's words): it matched on words alone, so nothing
    // does this; a weaker match of the right record is never promoted in its place.
    if (hits.length && hits.every((h) => h.off_topic))
      return {
        outcome: "rejected",
        reason: "no_capability_fits",
        message: `No capability does what these words ask (${hits.map((h) => h.capability).join(", ")} concern another kind of record). Search the capabilities with other words, or read: ${readingPath(ctx, intent ?? "")}`,
        retryable: false,
        next_actions: [{ tool: "search_capabilities", description: "Find a capability with other words" }],
      };
    const fields = Object.keys(rest.patch ?? {});
    const top = topMatch(hits);
    const fits = top ? fields.every((f) => top.hit.inputs.includes(f)) : false;
    // The fields may settle a near tie, and only in favour of the best match: among the matches
    // that take them, the best must still be the best one of all and lead clearly.
    const amongFitting = topMatch(hits.filter((h) => fields.every((f) => h.inputs.includes(f))));
    const named = !!top && !!intent && opensWithVerbOf(intent, top.hit.capability);
    // A best match of another kind of record than the words name is never started at once either.
    const pick =
      fits && (amongFitting?.clear || named) && amongFitting?.hit === top?.hit && !top?.hit.off_topic
        ? top?.hit
        : undefined;
    // The words clearly mean the best match and only a field it lacks kept it from starting: its
    // own start refuses the field (nothing is created) and names the field most likely meant.
    const clearButFields = !fits && !!top && (top.clear || named) && !top.hit.off_topic;
    if (!pick && clearButFields) {
      const out = await steps.startAction(ctx, { ...withWords, capability: top.hit.capability });
      // The by-words path's own reason: no capability the words found takes these fields.
      if (out.reason === "field_not_allowed") out.reason = "no_capability_takes_fields";
      const others = hits.filter((h) => h !== top.hit).map((h) => h.capability);
      if (others.length) out.other_matches = others;
      return out;
    }
    if (!pick)
      return {
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
    const out = await steps.startAction(ctx, { ...withWords, capability: pick.capability });
    const others = hits.filter((h) => h !== pick).map((h) => h.capability);
    if (others.length) out.other_matches = others;
    return confirmWhenReady(ctx, rest.idempotency_key, out, "start");
  }

  async function advanceAction(ctx: TrustedContext | null, raw: unknown): Promise<Outcome> {
    const parsed = advanceActionInputSchema.safeParse(raw);
    return confirmWhenReady(ctx, parsed.data?.idempotency_key, await steps.advanceAction(ctx, raw));
  }

  return { startAction, advanceAction };
}
