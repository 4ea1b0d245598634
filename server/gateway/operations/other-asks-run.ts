import type { GatewayOutcome } from "../gateway-pipeline";
import { askIntent } from "./other-ask-calls";
import type { OtherAsk } from "./other-asks";

/** One other ask this call ran: its words, the action that did it and how that ended. */
export interface AlsoDone {
  words: string;
  capability: string;
  /** Absent where nothing was started: what the words ask is already so. */
  action_id?: string;
  status: string;
  message: string;
  /** What the person would have approved, as the action's own answer carries it (done with …). */
  summary?: unknown;
}

/** What running the other asks needs: the start the agent's own call would make, and a cancel. */
export interface AskRunner {
  /** start_action with these arguments as the agent would call it (composed: key of the server's, confirm). */
  start(args: Record<string, unknown>): Promise<GatewayOutcome>;
  cancel(actionId: string): Promise<unknown>;
}

/** Asks run in one call at most: the rest keep their one call each. */
const MAX_RUN = 3;

/**
 * The other asks of words whose first change ran at once, each run in the same call where it can
 * run at once too: its capability needs nobody's approval, and the start the agent would make
 * next (`also asked … → start_action {…}`) runs it, under the engine's own rules (the record the
 * user's words named, or the only one). Sets O–T: "assign the ticket to Sara and set it to
 * pending" took a call per ask, where the legacy API's one PATCH did both. Each is previewed
 * first (a dry run: nothing saved) and started only where no person must approve it as it stands;
 * a start that then stops anyway (a field missing, the record the agent's pick) is cancelled, so
 * nothing is left half-started, and the ask stays offered as its one call. Asks run in order.
 * A preview its record refuses, naming the one start that takes that record, offers that start
 * instead ("close the headphones ticket", open: resolve it), never a call that would be refused.
 */
export async function runOtherAsks(
  asks: readonly OtherAsk[],
  runner: AskRunner,
): Promise<{ done: AlsoDone[]; left: OtherAsk[] }> {
  const done: AlsoDone[] = [];
  const left: OtherAsk[] = [];
  for (const [i, ask] of asks.entries()) {
    const runs = !!ask.unapproved && done.length < MAX_RUN;
    // An ask that does not run is previewed only where its words name no record yet: its record
    // may refuse it and name the start that takes it (set by words alone, nothing is saved).
    if (!ask.capability || ask.not_now || ask.unclear || (!runs && ask.entity_id)) {
      left.push(ask);
      continue;
    }
    const args = {
      capability: ask.capability,
      ...(ask.entity_id ? { entity_id: ask.entity_id } : {}),
      intent: askIntent(ask),
    };
    // A capability approved on a condition ("across teams") is previewed first: a start that
    // stops at a person's approval would open one (and mail its approvers) only to void it.
    const preview = await runner.start({ ...args, dry_run: true });
    // Already so ("give it to Bella", who has it): said as done, with nothing started (set W: the
    // ask was offered as a call, which answered "nothing to change").
    const already = alreadySo(preview);
    if (already) {
      done.push({ words: ask.words, capability: ask.capability, status: "already so", message: already });
      continue;
    }
    // Its start would stop for fields the words did not give (a resolution): said with the call
    // that does it, so they go with that call (set AM: "… Then resolve the ticket" took the
    // start, its "missing: resolution" and the advance).
    const needs = Array.isArray(preview.missing)
      ? preview.missing.filter((f): f is string => typeof f === "string").slice(0, 5)
      : [];
    if (preview.outcome === "preview" && needs.length) {
      left.push({ ...ask, needs });
      continue;
    }
    // Its words named a record that refuses it (set AZ: "give the <subject> ticket to
    // Bella", resolved): the call offered would be refused alike, so it is said as not done, why.
    // Only where no later ask may change the record first (review 57: "…, give the resolved
    // ticket to Bella and reopen it" said the assignment was not possible, then reopened it).
    const why = asks.slice(i + 1).some((a) => a.capability) ? undefined : refusedWhy(preview);
    if (why) {
      left.push({ ...ask, not_now: true, why });
      continue;
    }
    if (!runs || preview.outcome !== "preview" || preview.requires_approval !== false) {
      // Its record refused it and named the one start that takes it ("close" of an open ticket:
      // resolve it): that call is offered, never run here (its own approval was not weighed).
      left.push({ ...ask, ...(insteadOffered(preview, ask.capability) ?? {}) });
      continue;
    }
    const out = await runner.start(args);
    const id = typeof out.action_id === "string" ? out.action_id : undefined;
    if (id && (out.status === "completed" || out.status === "failed")) {
      done.push({
        words: ask.words,
        capability: ask.capability,
        action_id: id,
        status: out.status,
        message: String(out.message ?? ""),
        // Set U: "assign … done (tkt_9)" did not say to whom, and the model read the action for it.
        ...(out.summary ? { summary: out.summary } : {}),
      });
      continue;
    }
    if (id && out.status !== "refused" && out.status !== "cancelled") await runner.cancel(id);
    left.push(ask);
  }
  return { done, left };
}

/**
 * The one start a refused preview names on its record, where its refusal names one (a start
 * of another capability with the record's id); undefined otherwise.
 */
function insteadOffered(
  preview: GatewayOutcome,
  capability: string,
): { capability: string; entity_id: string } | undefined {
  const errors = Array.isArray(preview.validation_errors)
    ? (preview.validation_errors as Array<{ refused?: boolean }>)
    : [];
  if (!errors.some((e) => e.refused === true)) return undefined;
  const starts = (preview.next_actions ?? []).flatMap((n) =>
    n.tool === "start_action" &&
    typeof n.args?.capability === "string" &&
    n.args.capability !== capability &&
    typeof n.args.entity_id === "string"
      ? [{ capability: n.args.capability, entity_id: n.args.entity_id }]
      : [],
  );
  return starts.length === 1 ? starts[0] : undefined;
}

/**
 * Why a preview of an ask's words refuses it as it stands: each error on a record field (`…_id`),
 * nothing missing, and no other start offered. Undefined otherwise.
 */
function refusedWhy(preview: GatewayOutcome): string | undefined {
  const errors = Array.isArray(preview.validation_errors)
    ? (preview.validation_errors as Array<{ field?: string; message?: string }>)
    : [];
  const missing = Array.isArray(preview.missing) && preview.missing.length > 0;
  if (preview.outcome !== "preview" || !errors.length || missing || preview.next_actions?.length)
    return undefined;
  if (!errors.every((e) => /_id$/.test(String(e.field ?? "")) && typeof e.message === "string"))
    return undefined;
  return errors.map((e) => e.message).join("; ");
}

/** What a refused preview says is already so (its error marked `already`), or null. */
function alreadySo(preview: GatewayOutcome): string | null {
  if (!Array.isArray(preview.validation_errors)) return null;
  const errors = preview.validation_errors as Array<{ already?: boolean; message?: string }>;
  const said = errors.find((e) => e.already === true);
  return said && errors.every((e) => e.already === true) ? String(said.message ?? "already so") : null;
}
