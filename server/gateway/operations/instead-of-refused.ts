import type { NextAction, OutcomeBase } from "../../connectors/sdk/outcome";
import type { CapabilityHit } from "../../engine/capability-search";
import type { TrustedContext } from "../trusted-context";

type Outcome = OutcomeBase & Record<string, unknown>;

/**
 * A start its record refused ("cancel my order" on a paid order, where the words matched the
 * cancel of unpaid ones as well as the refund that cancels a paid one), whose refusal names
 * exactly one other capability for that record that the same words found: that one is started
 * instead, with the same words and record, under its own rules (an approval it needs is still
 * asked for; a change that runs at once still does only on a record the user meant). The
 * answer says what was refused first. Nothing else is ever tried: a weaker match that no
 * refusal points at is not promoted.
 */
export async function insteadOfRefused(
  start: (ctx: TrustedContext, raw: unknown) => Promise<Outcome>,
  ctx: TrustedContext,
  withWords: Record<string, unknown>,
  out: Outcome,
  hits: readonly CapabilityHit[],
): Promise<Outcome | null> {
  if (out.status !== "refused" || typeof out.capability !== "string") return null;
  const found = new Set(hits.map((h) => h.capability));
  const pointed = ((out.next_actions ?? []) as NextAction[]).filter(
    (n) =>
      n.tool === "start_action" &&
      typeof n.args?.capability === "string" &&
      typeof n.args.entity_id === "string" &&
      n.args.capability !== out.capability &&
      found.has(n.args.capability),
  );
  const [alternative] = pointed;
  if (pointed.length !== 1 || !alternative?.args) return null;
  const started = await start(ctx, {
    ...withWords,
    capability: alternative.args.capability,
    entity_id: alternative.args.entity_id,
  });
  const why = ((out.validation_errors ?? []) as Array<{ message?: string }>)[0]?.message ?? out.message;
  // The record the words named stays named by them (its id is passed only so it is the same one).
  const named = Object.entries((out.from_words ?? {}) as Record<string, string>).filter(
    ([, v]) => v === alternative.args?.entity_id,
  );
  const fromWords = {
    ...Object.fromEntries(named),
    ...((started.from_words ?? {}) as Record<string, string>),
  };
  return {
    ...started,
    ...(Object.keys(fromWords).length ? { from_words: fromWords } : {}),
    instead_of: `${out.capability}, refused: ${why.split(/[;:]/)[0]}`,
  };
}

/**
 * A start that named its capability (or sent a bad argument: answered as is), and where it sent
 * the user's words (a form's submit) and was refused, the one capability its refusal points at
 * that the words' own matches find, started instead as a start by words would. Set BG: "Cancel the
 * order I just placed", submitted on a paid order's cancel form, was refused ("use after_sales"),
 * and the model submitted the same words again on the after-sales form.
 */
export async function startNamed(
  start: (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>,
  search: (ctx: TrustedContext | null, raw: unknown) => Promise<Outcome>,
  ctx: TrustedContext | null,
  raw: unknown,
): Promise<Outcome> {
  const out = await start(ctx, raw);
  const asked = (raw ?? {}) as {
    capability?: string;
    intent?: string;
    entity_id?: string;
    dry_run?: boolean;
  };
  if (!ctx || out.status !== "refused" || typeof asked.intent !== "string" || asked.dry_run) return out;
  const query = asked.entity_id ? `${asked.intent.slice(0, 430)} ${asked.entity_id}` : asked.intent;
  const found = await search(ctx, { query, limit: 3 });
  const hits = ((found.results ?? []) as CapabilityHit[]).filter(
    (h) => !h.another_ask && !h.not_for?.length && !h.topic_only && !h.off_topic,
  );
  const { capability: _named, ...withWords } = asked;
  return (await insteadOfRefused(start, ctx, withWords, out, hits)) ?? out;
}
