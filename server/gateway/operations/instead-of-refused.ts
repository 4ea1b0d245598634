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
  // A read never stands in for a refused change (set DC: "Can I get a refund for the shipping on
  // my headphones order?" answered with the parcel's tracking, "done", the refusal last).
  const change = !hits.find((h) => h.capability === out.capability)?.read;
  const found = new Set(hits.filter((h) => !(change && h.read)).map((h) => h.capability));
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
  // The agent's key started the refused one: the other takes its own, made from it, so a resend
  // under the key finds both again (review 68: the first call answered "key reused").
  const key = typeof withWords.idempotency_key === "string" ? withWords.idempotency_key : undefined;
  const started = await start(ctx, {
    ...withWords,
    capability: alternative.args.capability,
    entity_id: alternative.args.entity_id,
    ...(key ? { idempotency_key: insteadKey(key) } : {}),
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

/** The key a hand-over starts under, made from the agent's (within its 128 characters). */
export function insteadKey(key: string): string {
  return `${key.slice(0, 119)}:instead`;
}
