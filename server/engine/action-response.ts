import type { AnyCapability, MoneyKeys } from "../connectors/sdk/define-capability";
import type { OutcomeBase, ValidationError } from "../connectors/sdk/outcome";
import { parseActionState } from "./action-state";
import type { ActionRow } from "./action-store";
import { allowedPatch } from "./allowed-patch";
import {
  type ApprovalRow,
  approvalExpiresAt,
  effectiveApprovalStatus,
  findApproval,
} from "./approval-ledger";
import type { ApprovalView } from "./approval-view";
import { isFreeText } from "./choice-words";
import type { Defaulted } from "./defaulted-fields";
import { describeInputs, fieldShapes, type InputDescription, patchJsonSchema } from "./describe-inputs";
import type { EngineDeps } from "./engine-deps";
import { laterFields } from "./later-fields";
import { nextActionsFor } from "./next-actions-for";
import { type PaidChoice, withOptInChoices, withPaidChoices } from "./paid-choices";
import type { AskUser } from "./unnamed-record";
import { wholeLinesShape } from "./whole-lines-shape";

/** The response of every action operation: a typed outcome plus the action's business state. */
export interface ActionResponse extends OutcomeBase {
  action_id?: string;
  capability?: string;
  entity?: { type: string; id: string | null };
  node?: string;
  status?: string;
  version?: number;
  inputs?: InputDescription[];
  /**
   * The node's choices. Sent in full by start_action and get_context; afterwards only the keys
   * that changed (advance_action), the others named in `options_unchanged`.
   */
  options?: Record<string, unknown>;
  /** Option keys left out because they are as last sent. */
  options_unchanged?: string[];
  /** The capability's money keys (integer minor units) in options, result and verification. */
  money_of?: MoneyKeys;
  applied?: string[];
  missing?: string[];
  pending?: string[];
  allowed_patch?: string[];
  validation_errors?: ValidationError[];
  requires_confirmation?: boolean;
  /** A dry run's: whether a person must approve the change as it stands. */
  requires_approval?: boolean;
  summary?: Record<string, unknown> | null;
  approval?: ApprovalView | null;
  approval_url?: string;
  effect?: { status: string; action_key: string; external_id: string | null; attempts: number } | null;
  external_id?: string | null;
  verification?: Record<string, unknown> | null;
  result?: Record<string, unknown> | null;
  /** JSON Schema of the patch advance_action accepts now (get_context). */
  patch_schema?: Record<string, unknown>;
  /** The record was the agent's pick among several the change fits: ask the user first. */
  ask_user?: AskUser;
  /** Held for the agent's check (hold-for-check.ts): a step completing it does not run it. */
  held_for_check?: true;
  /**
   * The key the server made for a change that runs on the caller's word (server-made-key.ts): the
   * gateway confirms under it in the same call and takes it out of the answer.
   */
  server_key?: string;
  /**
   * The user's words that set fields of the action (words-that-set.ts): the gateway reads them (a
   * clause made of them asks nothing of its own) and takes them out of the answer.
   */
  field_words?: string[];
  /**
   * The values the words replace (held-values-in-words.ts): field → the value the record held. The
   * gateway reads them (a clause naming that value is part of this change) and takes them out.
   */
  replaced?: Record<string, string>;
  /** Patch fields the start took under the capability's own name for them: field → the name sent. */
  renamed?: Record<string, string>;
  /** A resent request's first action and when it came: the answer is that action's outcome. */
  same_request?: { action_id: string; at: string };
  /** Fields whose value was read from words (a label sent, or the user's request): field → value. */
  from_words?: Record<string, string>;
  /** The record the words described: why it was picked, and why records that nearly fit were not. */
  why_picked?: Record<string, string>;
  /** Fields the action filled from its default, with the choices it passed over: the agent may ask. */
  defaulted?: Record<string, Defaulted>;
  /**
   * Missing fields only the user can choose because each choice changes what is paid, with the
   * choices offered (rows as in `options`, money under the declared keys): the agent asks once.
   */
  paid_choices?: Record<string, PaidChoice>;
  /** Optional fields only the user's word sets (an optional offer), not set, with the choices offered. */
  opt_in_choices?: Record<string, PaidChoice>;
  /** The shape of each missing or wrong field that is a structure (`[{sku, quantity}]`). */
  field_shapes?: Record<string, string>;
  /**
   * While the action stops for a choice: the required fields of later steps not given yet, each
   * with a short note. They may go in the same advance as the choice (applied in node order).
   */
  later?: Record<string, string>;
}

export async function approvalView(
  deps: EngineDeps,
  actionId: string,
  approval: ApprovalRow,
): Promise<ApprovalView> {
  const decider = approval.decidedById
    ? await deps.db.user.findFirst({
        where: { id: approval.decidedById, tenantId: approval.tenantId },
        select: { name: true, role: true },
      })
    : null;
  return {
    id: approval.id,
    status: effectiveApprovalStatus(approval),
    version: approval.version,
    url: deps.approvalUrl(actionId),
    expires_at: approvalExpiresAt(approval).toISOString(),
    decided_by: decider,
    decided_at: approval.decidedAt?.toISOString() ?? null,
    reason: approval.reason,
  };
}

/** What an operation decides; `respond` adds the action's state. `next_actions` here replaces the computed list. */
export type ResponseBase = Pick<ActionResponse, "outcome" | "message" | "retryable"> &
  Partial<ActionResponse>;

/** The full answer about a stored action: the operation's outcome plus its state, approval, effect and next_actions. */
export async function respond(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  base: ResponseBase,
  extra: {
    withInputs?: boolean;
    withSchema?: boolean;
    /** `full`, or only what differs from the options the agent last received (default: none). */
    options?: "full" | { since: Record<string, unknown> };
  } = {},
): Promise<ActionResponse> {
  const state = parseActionState(row.state);
  const effect = await deps.db.effect.findUnique({ where: { actionId: row.id } });
  const approvalRow = state.requires_approval ? await findApproval(deps.db, row.id, row.version) : null;
  const approval = approvalRow ? await approvalView(deps, row.id, approvalRow) : null;
  const allowed = allowedPatch(capability, row.entityId, row.status);
  const out: ActionResponse = {
    ...base,
    action_id: row.id,
    capability: capability.id,
    entity: { type: capability.appliesTo.entity, id: row.entityId },
    node: row.node,
    status: row.status,
    version: row.version,
    ...optionsToSend(state.options, extra.options),
    applied: base.applied ?? state.applied,
    missing: state.missing,
    pending: state.pending,
    allowed_patch: allowed,
    validation_errors: state.validation_errors,
    requires_confirmation: capability.nodes.some((n) => n.id === row.node && n.requiresConfirmation),
    summary: state.summary,
    approval,
    effect: effect
      ? {
          status: effect.status,
          action_key: effect.actionKey,
          external_id: effect.externalId,
          attempts: effect.attempts,
        }
      : null,
    external_id: effect?.externalId ?? null,
    verification: state.verification,
    result: state.result,
    // Which numbers of the rows, results and verification are money: every surface shows them so.
    ...(capability.money ? { money_of: capability.money } : {}),
    // Held for the agent's check (hold-for-check.ts): only its confirm_action runs it.
    ...(state.held_for_check && row.status === "open" ? { held_for_check: true } : {}),
    next_actions: base.next_actions ?? nextActionsFor(capability, row, state, effect, approval),
  };
  // Where the person approves, while an approval is outstanding (faces show it as a link).
  if (approval?.status === "pending") out.approval_url = deps.approvalUrl(row.id);
  if (extra.withInputs) out.inputs = describeInputs(capability);
  // Sent whole on every answer while missing (not only when options change): it is the question.
  Object.assign(out, withPaidChoices(capability, state.missing, state.options));
  // Until it is done, an offer left unused is said to be the user's to take (never the agent's).
  if (row.status === "open" || row.status === "awaiting_approval" || row.status === "rejected")
    Object.assign(out, withOptInChoices(capability, state.values, state.options));
  // What a missing or wrong structured field looks like: the text block shows it beside the field.
  const asked = [...state.missing, ...state.validation_errors.map((e) => e.field.split(".")[0] ?? e.field)];
  const shapes = asked.length ? fieldShapes(capability, asked) : {};
  // A missing structure says what goes in it, as its field declares (set AU: `evidence: [string]`
  // alone left the model to guess that a description of the defect, or a photo, is asked for).
  // A list of ids that each take a whole line says per line what goes (whole-lines-shape.ts).
  for (const node of capability.nodes)
    for (const [field, schema] of Object.entries(node.fields ?? {})) {
      const shape = shapes[field];
      if (!shape) continue;
      const lines = shape === "[string]" ? wholeLinesShape(capability, field, state.options) : undefined;
      if (lines) shapes[field] = lines;
      else if (state.missing.includes(field) && schema.description)
        shapes[field] = `${shape}: ${schema.description}`;
    }
  // A person's own text the request did not clearly give. Asking costs the user a turn and a
  // guess would put words in their mouth; their request, quoted as they said it, is their words,
  // and what is sent is what the summary (and whoever approves it) shows, byte for byte.
  for (const node of capability.nodes)
    for (const [field, schema] of Object.entries(node.fields ?? {}))
      if (state.missing.includes(field) && isFreeText(field, schema, state.options))
        shapes[field] =
          `${schema.description ?? field}: the user's words, sent and shown as written; if they gave none, their request verbatim (never words of your own)`;
  if (Object.keys(shapes).length) out.field_shapes = shapes;
  // Said with the question now, not one step at a time: the agent sends what it knows at once.
  if (row.status === "open" && (state.missing.length || state.validation_errors.length)) {
    const later = laterFields(capability, row.node, state.values, state.options);
    if (Object.keys(later).length) out.later = later;
  }
  if (extra.withSchema) out.patch_schema = patchJsonSchema(capability, allowed);
  return out;
}

/** Keys of the options that say how to read the lists, not lists themselves. */
const OPTION_META = new Set(["order_of", "field_of"]);

/** Unchanged options are not sent again: an agent pays per token for every repeat. */
export function optionsToSend(
  options: Record<string, unknown>,
  mode: "full" | { since: Record<string, unknown> } | undefined,
): Pick<ActionResponse, "options" | "options_unchanged"> {
  if (mode === "full") return { options };
  const since = mode?.since ?? options;
  const changed: Record<string, unknown> = {};
  const unchanged: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (OPTION_META.has(key)) continue;
    const before = since[key];
    if (JSON.stringify(value) === JSON.stringify(before)) {
      unchanged.push(key);
      continue;
    }
    // A list that grew or changed some rows: the rows the agent already has are not sent again.
    // If a row it was shown is gone, the list goes whole, so no stale row looks still offered.
    if (Array.isArray(value) && Array.isArray(before)) {
      const now = new Set(value.map((row) => JSON.stringify(row)));
      const shown = new Set(before.map((row) => JSON.stringify(row)));
      const fresh = value.filter((row) => !shown.has(JSON.stringify(row)));
      const kept = value.length - fresh.length;
      if (kept > 0 && [...shown].every((row) => now.has(row))) {
        changed[key] = fresh;
        unchanged.push(`${key} (${kept} of its rows, as sent before)`);
        continue;
      }
    }
    changed[key] = value;
  }
  // How to read the lists (their sort and field) goes with whichever lists are sent.
  if (Object.keys(changed).length)
    for (const key of OPTION_META) if (options[key] !== undefined) changed[key] = options[key];
  return { options: changed, options_unchanged: unchanged };
}

export function notFoundAction(actionId: string): ActionResponse {
  return {
    outcome: "not_found",
    reason: "action_not_found",
    message: `No action ${actionId}`,
    retryable: false,
    next_actions: [{ tool: "search_capabilities", description: "Find a capability and start a new action" }],
  };
}

/** A call that is not in the action's next_actions: refused with the reason and the list. */
export async function notAllowedNow(
  deps: EngineDeps,
  capability: AnyCapability,
  row: ActionRow,
  tool: string,
): Promise<ActionResponse> {
  const r = await respond(deps, capability, row, { outcome: "rejected", message: "", retryable: false });
  r.reason = "not_in_next_actions";
  const next = r.next_actions.map((n) => n.tool).join(", ") || "nothing";
  // An action refused at its start is over: what it lacked is no longer asked for.
  if (row.status === "refused") {
    r.message = `${tool} is not possible: this action ended at its start (${r.validation_errors?.[0]?.message ?? "refused"}); nothing is held or left open; next: ${next}`;
    return r;
  }
  // What is missing is named: the refusal says what to send, not only that it was refused.
  const lacking = [...(r.missing ?? []), ...(r.validation_errors ?? []).map((e) => e.field)];
  r.message = `${tool} is not possible while the action is ${row.status} at ${row.node}${
    lacking.length ? ` (needs ${[...new Set(lacking)].join(", ")})` : ""
  }; next: ${r.next_actions.map((n) => n.tool).join(", ") || "nothing (the action is finished)"}`;
  return r;
}

/** The connector's system stayed down through the retry budget (the reason keeps its wire name). */
export function unavailable(message: string, extra: Partial<ActionResponse> = {}): ActionResponse {
  return {
    outcome: "temporarily_unavailable",
    reason: "legacy_unavailable",
    message,
    retryable: true,
    next_actions: [],
    ...extra,
  };
}
